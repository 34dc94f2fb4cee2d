// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { osUpdateMessages } from '@flotilla/shared/host-os/os-update-eligibility';
import { createFakeApi } from '../../test-support/fake-api.js';
import type { FakeRow } from '../../test-support/fake-odata.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import type { FieldActionDevice } from './field-action-device.js';
import { OsUpdateDialog } from './OsUpdateDialog.js';

// The OS update dialog on its own: the takeover warning must be acknowledged, a catalogue that
// fails to load says so with a retry, and a selection switches regular devices to ESR only when
// they are not above the release's base version.

afterEach(cleanup);

const jetson: FieldActionDevice = {
  target: { id: 7, uuid: 'f'.repeat(32), name: 'edge-box', fleetId: 12 },
  state: {
    isConnected: true,
    supervisorVersion: '16.0.0',
    isInLocalMode: false,
    isActive: true,
    localModeBlock: null,
  },
  deviceType: 'jetson-xavier',
  osVersion: 'balenaOS 6.0.13',
  osVariant: 'prod',
  supervisorVersion: '16.0.0',
  isOnline: true,
  isWebAccessible: false,
  supportUntil: null,
  pinnedReleaseId: null,
};

const release = (id: number, version: string, base: string | null = null): FakeRow => ({
  id,
  raw_version: version,
  variant: 'prod',
  phase: null,
  status: 'success',
  is_final: true,
  is_invalidated: false,
  known_issue_list: null,
  release_tag: base === null ? [] : [{ tag_key: 'meta-balena-base', value: base }],
});

const hostApp: FakeRow = {
  id: 900,
  is_host: true,
  is_for__device_type: [{ slug: 'jetson-xavier' }],
  owns__release: [release(1, '6.0.13'), release(2, '6.1.0')],
};

// A Raspberry Pi 4's releases, with an ESR release cut from 6.1.0 (its meta-balena-base tag).
const esrApp: FakeRow = {
  id: 901,
  is_host: true,
  is_for__device_type: [{ slug: 'raspberrypi4-64' }],
  owns__release: [
    release(11, '6.0.13'),
    release(12, '6.1.0'),
    release(13, '2024.1.0', '6.0.13'),
    release(14, '2024.4.0', '6.1.0'),
  ],
};

const pi = (id: number, name: string, osVersion: string): FieldActionDevice => ({
  ...jetson,
  target: { ...jetson.target, id, name },
  deviceType: 'raspberrypi4-64',
  osVersion: `balenaOS ${osVersion}`,
});

const renderDialog = (refuseFirstRead = false, devices: FieldActionDevice[] = [jetson]) => {
  const api = createFakeApi({ application: [hostApp, esrApp] });
  if (refuseFirstRead) api.refuseNextRead('application', 'The catalogue is unavailable');
  const onConfirm = vi.fn();
  renderWithClient(
    api.client,
    <OsUpdateDialog
      devices={devices}
      skipped={[]}
      pending={false}
      progress={null}
      onConfirm={onConfirm}
      onClose={() => undefined}
    />,
  );
  return { api, onConfirm };
};

describe('OS update dialog', () => {
  it('asks to acknowledge a takeover update before running it', async () => {
    const { onConfirm } = renderDialog();
    expect(await screen.findByText(osUpdateMessages.takeover)).toBeTruthy();
    const confirm = screen.getByRole('button', { name: 'Update OS' });
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await userEvent.click(
      screen.getByRole('checkbox', { name: 'I understand: run the takeover update' }),
    );
    expect(confirm.hasAttribute('disabled')).toBe(false);
    await userEvent.click(confirm);
    expect(onConfirm).toHaveBeenCalledWith(
      { id: 'os-update', input: { version: '6.1.0', variant: 'prod', releases: { 7: 2 } } },
      [jetson],
    );
  });

  it('says when the versions cannot be loaded, and retries', async () => {
    renderDialog(true);
    expect(await screen.findByText(/The catalogue is unavailable/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'OS version' }).textContent).toContain('6.1.0'),
    );
  });

  it('switches the regular devices of a selection to ESR when they are not above its base', async () => {
    const devices = [
      pi(21, 'esr-box', '2024.1.0'),
      pi(22, 'old-box', '6.0.13'),
      pi(23, 'new-box', '6.2.0'),
    ];
    const { onConfirm } = renderDialog(false, devices);
    // The ESR device offers its line's newer version, chosen first.
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'OS version' }).textContent).toContain(
        '2024.4.0',
      ),
    );
    const table = screen.getByRole('table', { name: 'Devices and their eligibility' });
    const rowOf = (name: string) => within(table).getByText(name).closest('tr');
    expect(rowOf('old-box')?.textContent).toContain(osUpdateMessages.updatableSwitchToEsr);
    expect(rowOf('new-box')?.textContent).toContain(osUpdateMessages.downgradeCannotSwitchToEsr);
    await userEvent.click(screen.getByRole('button', { name: 'Update OS' }));
    expect(onConfirm).toHaveBeenCalledWith(
      {
        id: 'os-update',
        input: { version: '2024.4.0', variant: 'prod', releases: { 21: 14, 22: 14 } },
      },
      [devices[0], devices[1]],
    );
  });
});
