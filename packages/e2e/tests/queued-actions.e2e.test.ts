import type { Simulator } from '@flotilla/agent/simulator';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';
import {
  devicesOnline,
  type SimulatedDevice,
  simulateDevices,
} from '../support/simulated-fleet.js';

// A reboot sent to a device that went offline waits in its queue: the device page shows it as
// queued, and cancelling it leaves it cancelled.

describe('actions queued for offline devices', () => {
  let browser: Browser;
  let owner: ApiUser;
  let simulator: Simulator;
  let device: SimulatedDevice;

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('queuer');
    const fleetId = await createFleet(owner, 'Queue-Home');
    const [fleet] = await owner.client.pine.get({
      resource: 'application',
      options: { $select: ['id', 'slug'], $filter: { id: fleetId } },
    });
    if (!fleet) throw new Error('fleet missing');
    simulator = await simulateDevices(owner, fleet, 1);
    const [online] = await devicesOnline(owner, fleetId, simulator);
    if (!online) throw new Error('no device');
    device = online;
    // The device goes away: its cloudlink closes.
    await simulator.stop();
  });
  afterAll(async () => {
    await browser.close();
  });

  it('queues a reboot for the offline device, shows it queued, and cancels it', async () => {
    await expect
      .poll(async () => {
        const [row] = await owner.client.pine.get({
          resource: 'device',
          options: { $select: ['is_connected_to_vpn'], $filter: { id: device.id } },
        });
        return row?.is_connected_to_vpn;
      })
      .toBe(false);
    const page = await newPage(browser);
    await logInAs(page, owner);
    await page.goto(`/devices/${device.uuid}`);
    await page.getByRole('heading', { name: device.device_name, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('menuitem', { name: /^Reboot/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Reboot' });
    await dialog.getByText('1 device is offline.').waitFor();
    expect(
      await dialog.getByRole('checkbox', { name: 'Queue for when it comes online' }).isChecked(),
    ).toBe(true);
    await page.screenshot({ path: 'data/e2e-screens/queued-reboot-dialog.png' });
    await dialog.getByRole('button', { name: 'Reboot' }).click();
    await page.getByText(`Queued for ${device.device_name} until it comes online`).waitFor();
    const card = page.getByRole('region', { name: 'Queued actions' });
    const row = card.getByRole('row').filter({ hasText: 'Reboot' });
    await row.getByText('Queued', { exact: true }).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/queued-reboot.png', fullPage: true });
    await row.getByRole('button', { name: 'Cancel' }).click();
    await row.getByText('Cancelled', { exact: true }).first().waitFor();
    expect(await row.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
    await page.context().close();
  });
});
