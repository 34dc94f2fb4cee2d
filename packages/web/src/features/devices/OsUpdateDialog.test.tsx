// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { osUpdateMessages } from '@flotilla/shared/host-os/os-update-eligibility';
import { createFakeApi } from '../../test-support/fake-api.js';
import type { FakeRow } from '../../test-support/fake-odata.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import type { FieldActionDevice } from './field-action-device.js';
import { OsUpdateDialog } from './OsUpdateDialog.js';

// The OS update dialog on its own: the takeover warning must be acknowledged, and a catalogue
// that fails to load says so with a retry.

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

const release = (id: number, version: string): FakeRow => ({
  id,
  raw_version: version,
  variant: 'prod',
  phase: null,
  status: 'success',
  is_final: true,
  is_invalidated: false,
  known_issue_list: null,
});

const hostApp: FakeRow = {
  id: 900,
  is_host: true,
  is_for__device_type: [{ slug: 'jetson-xavier' }],
  owns__release: [release(1, '6.0.13'), release(2, '6.1.0')],
};

const renderDialog = (refuseFirstRead = false) => {
  const api = createFakeApi({ application: [hostApp] });
  if (refuseFirstRead) api.refuseNextRead('application', 'The catalogue is unavailable');
  const onConfirm = vi.fn();
  renderWithClient(
    api.client,
    <OsUpdateDialog
      devices={[jetson]}
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
      { id: 'os-update', input: { version: '6.1.0', releases: { 7: 2 } } },
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
});
