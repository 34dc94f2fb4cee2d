import type { Simulator } from '@flotilla/agent/simulator';
import type { QueuedAction } from '@flotilla/shared/devices/queued-actions';
import { createFlotillaClient } from '@flotilla/sdk/create-client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { baseUrl, launchBrowser, newPage } from '../support/browser.js';
import { devicePage, fleetDevicesPage, openActionDialog } from '../support/pages/device-pages.js';
import { type SimulatedDevice, simulateOnline } from '../support/simulated-fleet.js';

// An OS update for a device that went offline waits in its queue: the console queues it with the
// expiry chosen, the device page and the devices table show it waiting, and cancelling it puts
// back the OS release the device was told to run before.

const osVersions = ['5.3.24', '6.0.13', '6.1.24', '6.3.18', '6.5.9', '6.6.0'];
const hour = 3_600_000;

describe('OS updates queued for offline devices', () => {
  let browser: Browser;
  let owner: ApiUser;
  let fleetId: number;
  let simulator: Simulator | undefined;
  let device: SimulatedDevice;

  // The OS release the device is told to run, by its version.
  const osTarget = async (): Promise<string | null> => {
    const [row] = await owner.client.pine.get({
      resource: 'device',
      options: {
        $select: ['id'],
        $filter: { id: device.id },
        $expand: { should_be_operated_by__release: { $select: ['raw_version'] } },
      },
    });
    return row?.should_be_operated_by__release[0]?.raw_version ?? null;
  };
  const queueOf = () =>
    owner.client.request<QueuedAction[]>({
      method: 'GET',
      path: `/device-actions/v1/queued?deviceId=${device.id}`,
    });

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('osqueue');
    fleetId = await createFleet(owner, 'Os-Queue');
    const online = await simulateOnline(owner, fleetId, 1, 7);
    simulator = online.simulator;
    const [first] = online.devices;
    if (!first) throw new Error('no device');
    device = first;
    const types = await owner.client.pine.get({
      resource: 'device_type',
      options: { $select: ['slug'], $filter: { slug: 'raspberrypi4-64' } },
    });
    // The same releases as the other host OS scenarios, so importing it again changes nothing.
    const admin = createFlotillaClient({ apiUrl: baseUrl() });
    await admin.auth.login({ email: inject('adminEmail'), password: inject('adminPassword') });
    await admin.request({
      method: 'POST',
      path: '/admin/v1/host-os/catalogue',
      body: {
        releases: types.flatMap((type) =>
          osVersions.map((version) => ({
            kind: 'os',
            deviceType: type.slug,
            version,
            variant: '',
            phase: version === '6.6.0' ? 'current' : 'sunset',
            notes: `* balenaOS ${version}`,
          })),
        ),
      },
    });
    // The device goes away: its cloudlink closes.
    await simulator.stop();
    simulator = undefined;
  });
  afterAll(async () => {
    await simulator?.stop();
    await browser?.close();
  });

  it('queues the update with its expiry, shows it waiting, and cancels it', async () => {
    await expect
      .poll(
        async () => {
          const [row] = await owner.client.pine.get({
            resource: 'device',
            options: {
              $select: ['is_online', 'is_connected_to_vpn'],
              $filter: { id: device.id },
            },
          });
          return row ? row.is_online || row.is_connected_to_vpn : undefined;
        },
        // The dialogs go by is_online, which turns false 30 s after the cloudlink closed (the
        // agent's time to reconnect), past the default deadline of a poll.
        { timeout: 90_000 },
      )
      .toBe(false);
    const before = await osTarget();
    const page = await newPage(browser);
    await logInAs(page, owner);
    const summary = devicePage(page);
    await summary.open(device.uuid);
    await page.getByRole('heading', { name: device.device_name, level: 1 }).waitFor();

    const dialog = await openActionDialog(page, 'Update OS');
    await dialog.getByText('1 device is offline.').waitFor();
    const queue = dialog.getByRole('checkbox', { name: 'Queue for when it comes online' });
    expect(await queue.isChecked()).toBe(true);
    await dialog.getByRole('combobox', { name: 'OS version' }).click();
    await page.getByRole('option', { name: /^6\.5\.9/ }).click();
    await expect
      .poll(() => dialog.getByRole('combobox', { name: 'OS version' }).textContent())
      .toContain('6.5.9');
    await dialog.getByRole('combobox', { name: 'Expires after' }).click();
    await page.getByRole('option', { name: '3 days', exact: true }).click();
    const [run] = await Promise.all([
      page.waitForResponse((response) => response.url().includes('/device-actions/v1/run')),
      dialog.getByRole('button', { name: 'Update OS' }).click(),
    ]);
    expect(run.status()).toBe(200);
    await summary.toast(`Queued for ${device.device_name} until it comes online`).waitFor();

    // The release is set at once; the queue keeps the one it replaced and the expiry chosen.
    expect(await osTarget()).toBe('6.5.9');
    const [queued] = await queueOf();
    expect(queued).toMatchObject({ action: 'os-update', status: 'queued' });
    expect(Date.parse(queued?.expiresAt ?? '') - Date.parse(queued?.createdAt ?? '')).toBe(
      72 * hour,
    );

    const card = page.getByRole('region', { name: 'Queued actions' });
    const row = card.getByRole('row').filter({ hasText: 'OS update to balenaOS 6.5.9' });
    await row.getByText('Queued', { exact: true }).waitFor();

    const table = fleetDevicesPage(page);
    await table.open(fleetId);
    const chip = table.row(device.device_name).getByText('1 queued', { exact: true });
    await chip.hover();
    await page
      .getByRole('tooltip')
      .filter({ hasText: 'Waiting for the device to come online' })
      .getByText('OS update to balenaOS 6.5.9', { exact: true })
      .waitFor();

    await table.openDevice(device.device_name);
    const [cancelled] = await Promise.all([
      page.waitForResponse((response) =>
        /\/device-actions\/v1\/queued\/\d+\/cancel$/.test(response.url()),
      ),
      row.getByRole('button', { name: 'Cancel' }).click(),
    ]);
    expect(cancelled.status()).toBe(200);
    await row.getByText('Cancelled', { exact: true }).waitFor();
    await row.getByText('Cancelled; the previous OS release was put back').waitFor();
    expect(await row.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
    expect(await osTarget()).toBe(before);

    // Nothing waits any more: once the table has read the fleet's queue, the chip is gone.
    await Promise.all([
      page.waitForResponse((response) =>
        response.url().includes(`/device-actions/v1/queued?fleetId=${fleetId}`),
      ),
      table.open(fleetId),
    ]);
    await table.row(device.device_name).waitFor();
    expect(
      await table
        .row(device.device_name)
        .getByText(/queued$/)
        .count(),
    ).toBe(0);
    await page.context().close();
  });
});
