// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { deviceDetail, deviceRow } from '../../test-support/device-fixtures.js';
import {
  deviceWrites,
  openAction,
  renderDevice,
  renderTable,
} from '../../test-support/host-update-world.js';

// OS updates from the Actions menu, single and batch, and the OS on the device summary, on the
// strict fake API: what the picker offers, which devices each choice updates and the writes sent.

afterEach(cleanup);

describe('OS update', () => {
  it('offers newer valid versions newest first, the current one disabled, and updates the device', async () => {
    const api = renderDevice(deviceDetail());
    const dialog = await openAction('Update OS');
    const picker = await within(dialog).findByRole('combobox', { name: 'OS version' });
    // The newest offered version is chosen to begin with.
    expect(picker.textContent).toContain('6.1.0');
    await userEvent.click(picker);
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent?.slice(0, 6))).toEqual([
      '6.1.0 ',
      '6.0.13',
      '5.3.1 ',
    ]);
    const current = screen.getByRole('option', { name: /^5\.3\.1/ });
    expect(current.getAttribute('aria-disabled')).toBe('true');
    expect(current.textContent).toContain('Already running selected version');
    // The invalidated 6.2.0 is not offered; each version shows its OS line.
    expect(screen.getByRole('option', { name: /^6\.0\.13/ }).textContent).toContain('Sunset');
    await userEvent.click(screen.getByRole('option', { name: /^6\.1\.0/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update OS' }));
    await waitFor(() => expect(deviceWrites(api)).toHaveLength(1));
    expect(deviceWrites(api)).toEqual([{ id: 101, body: { should_be_operated_by__release: 903 } }]);
    expect(await screen.findByText('Started the OS update of brave-otter')).toBeTruthy();
  });

  it('updates the device from its actions page, through the same dialog', async () => {
    const api = renderDevice(deviceDetail(), 'operator', '/actions');
    const region = await screen.findByRole('region', { name: 'Update host OS' });
    const button = await waitFor(() => {
      const found = within(region).getByRole<HTMLButtonElement>('button', { name: 'Update OS' });
      expect(found.disabled).toBe(false);
      return found;
    });
    await userEvent.click(button);
    const dialog = await screen.findByRole('dialog');
    const picker = await within(dialog).findByRole('combobox', { name: 'OS version' });
    expect(picker.textContent).toContain('6.1.0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update OS' }));
    await waitFor(() => expect(deviceWrites(api)).toHaveLength(1));
    expect(deviceWrites(api)).toEqual([{ id: 101, body: { should_be_operated_by__release: 903 } }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("shows the server's refusal", async () => {
    const api = renderDevice(deviceDetail());
    api.refuseNext('PATCH', 'device', 101, 'OS downgrades are not allowed: brave-otter runs 6.1.0');
    const dialog = await openAction('Update OS');
    await within(dialog).findByRole('combobox', { name: 'OS version' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update OS' }));
    // The fake answers the refusal as text, which the client prefixes with "Request error".
    expect(
      await screen.findByText(/OS downgrades are not allowed: brave-otter runs 6\.1\.0$/),
    ).toBeTruthy();
    expect(deviceWrites(api)).toEqual([{ id: 101, body: { should_be_operated_by__release: 903 } }]);
  });

  it('queues the update of an offline device for the chosen time, or refuses it without the queue', async () => {
    const api = renderDevice(deviceDetail({ is_online: false }));
    const runs: unknown[] = [];
    api.on('POST', '/device-actions/v1/run', (body) => {
      runs.push(body);
      return {
        status: 200,
        body: [
          { deviceId: 101, outcome: 'queued', statusCode: null, message: null, queuedActionId: 8 },
        ],
      };
    });
    const dialog = await openAction('Update OS');
    await within(dialog).findByRole('combobox', { name: 'OS version' });
    expect(within(dialog).getByText(/1 device is offline/)).toBeTruthy();
    const confirm = within(dialog).getByRole('button', { name: 'Update OS' });
    const queue = within(dialog).getByRole('checkbox', { name: 'Queue for when it comes online' });
    // Without the queue, an offline device cannot update.
    await userEvent.click(queue);
    expect(await within(dialog).findByText('Update disabled for offline devices')).toBeTruthy();
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await userEvent.click(queue);
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Expires after' }));
    await userEvent.click(await screen.findByRole('option', { name: '6 hours' }));
    await userEvent.click(confirm);
    await waitFor(() => expect(runs).toHaveLength(1));
    expect(runs).toEqual([
      {
        action: 'os-update',
        deviceIds: [101],
        params: { targetVersion: '6.1.0.prod' },
        queue: { expiresInHours: 6 },
      },
    ]);
    // The queueing route sets the release: nothing is written through /v7.
    expect(deviceWrites(api)).toEqual([]);
    expect(await screen.findByText(/Queued for brave-otter/)).toBeTruthy();
  });

  it('updates only the eligible devices of a selection and says why the others are skipped', async () => {
    const api = renderTable([
      deviceRow(),
      deviceRow({ id: 102, uuid: 'b'.repeat(32), device_name: 'calm-heron', is_online: false }),
      deviceRow({
        id: 103,
        uuid: 'c'.repeat(32),
        device_name: 'quick-fox',
        os_version: 'balenaOS 6.1.0',
      }),
    ]);
    for (const name of ['brave-otter', 'calm-heron', 'quick-fox']) {
      await userEvent.click(await screen.findByRole('checkbox', { name: `Select ${name}` }));
    }
    const dialog = await openAction('Update OS');
    const table = await within(dialog).findByRole('table', {
      name: 'Devices and their eligibility',
    });
    const rowOf = (name: string) => within(table).getByRole('row', { name: new RegExp(name) });
    // Queued by default: the offline device's row says it waits, not that it updates now.
    expect(rowOf('calm-heron').textContent).toContain('Queued until online');
    expect(rowOf('brave-otter').textContent).toContain('Will be updated');
    expect(within(dialog).getByText('2 devices of 3 will be updated.')).toBeTruthy();
    // The offline device is left out when its update is not queued.
    await userEvent.click(
      within(dialog).getByRole('checkbox', { name: 'Queue for when it comes online' }),
    );
    expect(rowOf('brave-otter').textContent).toContain('Will be updated');
    expect(rowOf('calm-heron').textContent).toContain('Update disabled for offline devices');
    expect(rowOf('quick-fox').textContent).toContain('Already running selected version');
    expect(within(dialog).getByText('1 device of 3 will be updated.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update OS' }));
    await waitFor(() => expect(deviceWrites(api)).toHaveLength(1));
    expect(deviceWrites(api)).toEqual([{ id: 101, body: { should_be_operated_by__release: 903 } }]);
  });
});

describe('host OS on the device summary', () => {
  it('shows the OS line and the changelog of the release', async () => {
    renderDevice(
      deviceDetail({
        os_version: 'balenaOS 6.1.0',
        should_be_operated_by__release: [{ id: 903, raw_version: '6.1.0', phase: 'current' }],
      }),
    );
    const summary = await screen.findByRole('region', { name: 'Device summary' });
    expect(within(summary).getByText('Current')).toBeTruthy();
    await userEvent.click(within(summary).getByRole('button', { name: 'Changelog' }));
    const dialog = await screen.findByRole('dialog', { name: 'balenaOS 6.1.0 changelog' });
    expect(await within(dialog).findByText('Notes of 6.1.0')).toBeTruthy();
  });

  it('shows the OS update the device is running', async () => {
    renderDevice(
      deviceDetail({
        overall_status: 'updating',
        provisioning_state: 'OS update: downloading balenaOS 6.1.0',
        provisioning_progress: 40,
        should_be_operated_by__release: [{ id: 903, raw_version: '6.1.0', phase: 'current' }],
      }),
    );
    expect(
      await screen.findByText('Updating OS to 6.1.0: downloading balenaOS 6.1.0 (40%)'),
    ).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'OS update progress' })).toBeTruthy();
  });
});
