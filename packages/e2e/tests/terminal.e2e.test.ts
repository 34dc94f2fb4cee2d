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

// Issue 9 section 2: a host OS terminal on a simulated device, from the device page.
describe('web terminal', () => {
  let browser: Browser;
  let owner: ApiUser;
  let simulator: Simulator;
  let devices: SimulatedDevice[];

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('term');
    const fleetId = await createFleet(owner, 'Term-Fleet');
    const [fleet] = await owner.client.pine.get({
      resource: 'application',
      options: { $select: ['id', 'slug'], $filter: { id: fleetId } },
    });
    if (!fleet) throw new Error('fleet missing');
    simulator = await simulateDevices(owner, fleet, 1);
    devices = await devicesOnline(owner, fleetId, simulator);
  });
  afterAll(async () => {
    await simulator?.stop();
    await browser?.close();
  });

  it('opens a host OS terminal and reads uname -a', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const device = devices[0];
    if (!device) throw new Error('no device');
    await page.goto(`/devices/${device.uuid}`);
    await page.getByRole('button', { name: 'Start session' }).click({ timeout: 30_000 });
    const view = page.getByTestId('terminal-view');
    await expect.poll(() => view.textContent(), { timeout: 30_000 }).toContain('simulated shell');
    await view.click();
    await page.keyboard.type('uname -a');
    await page.keyboard.press('Enter');
    await expect.poll(() => view.textContent(), { timeout: 30_000 }).toMatch(/Linux \S+ 6\.1\.77/);
    await expect
      .poll(() => page.getByRole('tab', { name: /Host OS/ }).textContent())
      .toContain('connected');
    await page.screenshot({ path: 'data/e2e-screens/terminal.png', fullPage: true });
    await page.context().close();
  });
});
