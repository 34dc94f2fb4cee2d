import type { Simulator } from '@flotilla/agent/simulator';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { devicePage, fleetDevicesPage } from '../support/pages/device-pages.js';
import {
  devicesOnline,
  type SimulatedDevice,
  simulateDevices,
} from '../support/simulated-fleet.js';

describe('live devices', () => {
  let browser: Browser;
  let owner: ApiUser;
  let fleetId: number;
  let simulator: Simulator;
  let devices: SimulatedDevice[];

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('fleetops');
    fleetId = await createFleet(owner, 'Live-Sensors');
    const [fleet] = await owner.client.pine.get({
      resource: 'application',
      options: { $select: ['id', 'slug'], $filter: { id: fleetId } },
    });
    if (!fleet) throw new Error('fleet missing');
    simulator = await simulateDevices(owner, fleet, 3);
    devices = await devicesOnline(owner, fleetId, simulator);
  });
  afterAll(async () => {
    await simulator.stop();
    await browser.close();
  });

  it('shows simulated devices online in the fleet’s device table', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const table = fleetDevicesPage(page);
    await table.open(fleetId);
    // The API showed them online before the page opened.
    for (const device of devices) {
      await expect.poll(() => table.statusOf(device.device_name).textContent()).toMatch(/Online/);
    }
    await page.screenshot({ path: 'data/e2e-screens/devices-table.png', fullPage: true });
    await page.context().close();
  });

  it('reboots a device from its page: it goes offline and comes back', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const device = devices[0];
    if (!device) throw new Error('no device');
    const view = devicePage(page);
    await view.open(device.uuid);
    await view.heading(device.device_name).waitFor();
    await expect.poll(() => view.field('Cloudlink').textContent()).toMatch(/Connected/i);
    await page.screenshot({ path: 'data/e2e-screens/device-page.png', fullPage: true });
    await view.run('Reboot');
    // The device stays off 20-22 s, the page refreshes every 8 s: it sees the device go (its
    // simulator says when) and come back.
    const handle = simulator.devices.find((candidate) => candidate.uuid === device.uuid);
    await handle?.waitFor('rebooting', 30_000);
    await expect
      .poll(() => view.field('Cloudlink').textContent(), { timeout: 30_000 })
      .toMatch(/Disconnected/i);
    await handle?.waitFor('online', 60_000);
    await expect
      .poll(() => view.field('Cloudlink').textContent(), { timeout: 30_000 })
      .toMatch(/^Connected/i);
    await page.context().close();
  });

  it('identifies three devices at once from the table', async () => {
    // The rebooted device is back (through the API) before the page opens.
    await devicesOnline(owner, fleetId, simulator);
    const page = await newPage(browser);
    await logInAs(page, owner);
    const table = fleetDevicesPage(page);
    await table.open(fleetId);
    for (const device of devices) {
      await expect.poll(() => table.statusOf(device.device_name).textContent()).toMatch(/Online/);
    }
    await table.selectPage();
    await table.batch('Identify');
    await table.toast(/Identif/).waitFor({ timeout: 30_000 });
    expect(await table.toast(/fail/i).count()).toBe(0);
    // Each simulated device received the identify and blinked.
    for (const device of devices) {
      const handle = simulator.devices.find((candidate) => candidate.uuid === device.uuid);
      await expect.poll(() => handle?.device.blinks ?? 0).toBeGreaterThan(0);
    }
    await page.context().close();
  });
});
