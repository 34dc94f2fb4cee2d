import { hasUnsyncedClock } from '@flotilla/agent/runtime/simulated-checks';
import type { Simulator } from '@flotilla/agent/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';
import {
  devicesOnline,
  type SimulatedDevice,
  simulateDevices,
} from '../support/simulated-fleet.js';

// Health checks and diagnostics run on simulated devices from the console.
describe('device diagnostics', () => {
  let browser: Browser;
  let owner: ApiUser;
  let simulator: Simulator;
  let devices: SimulatedDevice[];

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('diag');
    const fleetId = await createFleet(owner, 'Diag-Fleet');
    const [fleet] = await owner.client.pine.get({
      resource: 'application',
      options: { $select: ['id', 'slug'], $filter: { id: fleetId } },
    });
    if (!fleet) throw new Error('fleet missing');
    // Seed 2 names the first device slow-fox, whose simulated clock never synchronises.
    simulator = await simulateDevices(owner, fleet, 3, undefined, 2);
    devices = await devicesOnline(owner, fleetId, simulator);
  });
  afterAll(async () => {
    await simulator?.stop();
    await browser?.close();
  });

  const runChecks = async (page: Page, device: SimulatedDevice) => {
    await page.goto(`/devices/${device.uuid}/diagnostics`);
    await page.getByRole('button', { name: 'Run checks' }).click();
    const table = page.getByRole('table', { name: 'Health checks' });
    await table.waitFor({ timeout: 30_000 });
    return table;
  };

  // The tab's first load asked for the newest run and got a 404 when none ran yet; and
  // its inner tab repeated the page's own name.
  it('opens a device that never ran anything without a failed request', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const device = devices[2];
    if (!device) throw new Error('no device');
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`/devices/${device.uuid}/diagnostics`);
    const sections = page.getByRole('tablist', { name: 'Diagnostics sections' });
    await sections.getByRole('tab', { name: 'Health checks' }).waitFor();
    await page.getByText('Not run yet').waitFor();
    await sections.getByRole('tab', { name: 'Diagnostics report' }).click();
    await page.getByRole('button', { name: 'Run diagnostics' }).waitFor();
    await page.getByText('Not run yet').waitFor();
    expect(await sections.getByRole('tab', { name: 'Diagnostics', exact: true }).count()).toBe(0);
    expect(failed).toEqual([]);
    await page.context().close();
  });

  it('runs health checks: passing ones, and a failing one on a device whose clock is off', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const unsynced = devices.find((device) => hasUnsyncedClock(device.device_name));
    if (!unsynced) throw new Error('seed 2 should give a device with an unsynchronised clock');
    // Both outcomes in one run: the clock check fails, the connectivity check passes.
    const table = await runChecks(page, unsynced);
    await table
      .getByRole('row', { name: /check_timesync/ })
      .getByText('Failed')
      .waitFor();
    await table
      .getByRole('row', { name: /check_cloud_connectivity/ })
      .getByText('Passed')
      .waitFor();
    await page.screenshot({ path: 'data/e2e-screens/health-checks.png', fullPage: true });
    const healthy = devices.find((device) => !hasUnsyncedClock(device.device_name));
    if (healthy) {
      const passing = await runChecks(page, healthy);
      await passing
        .getByRole('row', { name: /check_timesync/ })
        .getByText('Passed')
        .waitFor();
    }
    await page.context().close();
  });

  it('runs diagnostics and shows the report, which survives a reload', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const device = devices[0];
    if (!device) throw new Error('no device');
    await page.goto(`/devices/${device.uuid}/diagnostics`);
    const sections = page.getByRole('tablist', { name: 'Diagnostics sections' });
    await sections.getByRole('tab', { name: 'Diagnostics' }).click();
    await page.getByRole('button', { name: 'Run diagnostics' }).click();
    const report = page.getByLabel('Diagnostics report');
    await expect
      .poll(() => report.textContent(), { timeout: 30_000 })
      .toMatch(/This device is simulated/);
    await page.reload();
    await sections.getByRole('tab', { name: 'Diagnostics' }).click();
    await expect.poll(() => report.textContent()).toContain(device.device_name);
    await page.context().close();
  });
});
