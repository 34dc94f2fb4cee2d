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

// Supervisor updates from the Actions menu, single and batch, on the strict fake API.

afterEach(cleanup);

describe('supervisor update', () => {
  it("offers the newer supervisors of the device's architecture and updates it", async () => {
    const api = renderDevice(deviceDetail());
    const dialog = await openAction('Update supervisor');
    const picker = await within(dialog).findByRole('combobox', { name: 'Supervisor version' });
    expect(picker.textContent).toContain('17.0.0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update supervisor' }));
    await waitFor(() => expect(deviceWrites(api)).toHaveLength(1));
    expect(deviceWrites(api)).toEqual([{ id: 101, body: { should_be_managed_by__release: 912 } }]);
    expect(await screen.findByText('Started the supervisor update of brave-otter')).toBeTruthy();
  });

  it('queues the supervisor update of an offline device, or skips it without the queue', async () => {
    const api = renderDevice(deviceDetail({ is_online: false }));
    const runs: unknown[] = [];
    api.on('POST', '/device-actions/v1/run', (body) => {
      runs.push(body);
      return {
        status: 200,
        body: [
          { deviceId: 101, outcome: 'queued', statusCode: null, message: null, queuedActionId: 9 },
        ],
      };
    });
    const dialog = await openAction('Update supervisor');
    await within(dialog).findByRole('combobox', { name: 'Supervisor version' });
    const confirm = within(dialog).getByRole('button', { name: 'Update supervisor' });
    await userEvent.click(
      within(dialog).getByRole('checkbox', { name: 'Queue for when it comes online' }),
    );
    expect(await within(dialog).findByText('Device must be online')).toBeTruthy();
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await userEvent.click(
      within(dialog).getByRole('checkbox', { name: 'Queue for when it comes online' }),
    );
    await userEvent.click(confirm);
    await waitFor(() => expect(runs).toHaveLength(1));
    expect(runs).toEqual([
      {
        action: 'supervisor-update',
        deviceIds: [101],
        params: { releaseId: 912 },
        queue: { expiresInHours: 24 },
      },
    ]);
    expect(deviceWrites(api)).toEqual([]);
  });

  it('says which devices of a selection update now and which wait for the queue', async () => {
    renderTable([
      deviceRow(),
      deviceRow({ id: 102, uuid: 'b'.repeat(32), device_name: 'calm-heron', is_online: false }),
    ]);
    for (const name of ['brave-otter', 'calm-heron']) {
      await userEvent.click(await screen.findByRole('checkbox', { name: `Select ${name}` }));
    }
    const dialog = await openAction('Update supervisor');
    const table = await within(dialog).findByRole('table', {
      name: 'Devices and their eligibility',
    });
    const rowOf = (name: string) => within(table).getByRole('row', { name: new RegExp(name) });
    expect(rowOf('brave-otter').textContent).toContain('Will be updated');
    expect(rowOf('calm-heron').textContent).toContain('Queued until online');
    expect(within(dialog).getByText('2 devices of 2 will be updated.')).toBeTruthy();
  });

  it('refuses ESR devices', async () => {
    renderDevice(deviceDetail({ os_version: 'balenaOS 2024.1.0' }));
    const dialog = await openAction('Update supervisor');
    expect(
      await within(dialog).findByText('Cannot update the supervisor of ESR devices'),
    ).toBeTruthy();
    expect(
      within(dialog).getByRole('button', { name: 'Update supervisor' }).hasAttribute('disabled'),
    ).toBe(true);
  });

  it('lets a safe-operator update the OS but not the supervisor', async () => {
    renderDevice(deviceDetail(), 'safe-operator');
    await userEvent.click(await screen.findByRole('button', { name: 'Actions' }));
    await waitFor(() => {
      const supervisor = screen.getByRole('menuitem', { name: /^Update supervisor/ });
      expect(supervisor.getAttribute('aria-disabled')).toBe('true');
      expect(supervisor.textContent).toMatch(/do not have permission to do this$/);
      const os = screen.getByRole('menuitem', { name: /^Update OS/ });
      expect(os.getAttribute('aria-disabled')).toBeNull();
    });
  });
});
