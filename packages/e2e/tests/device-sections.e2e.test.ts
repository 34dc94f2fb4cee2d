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

// A device's Actions and Settings sections and the summary's move button, on a simulated device.
describe('device sections', () => {
  let browser: Browser;
  let owner: ApiUser;
  let simulator: Simulator;
  let device: SimulatedDevice;

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('sections');
    const fleetId = await createFleet(owner, 'Sections-Fleet');
    const [fleet] = await owner.client.pine.get({
      resource: 'application',
      options: { $select: ['id', 'slug'], $filter: { id: fleetId } },
    });
    if (!fleet) throw new Error('fleet missing');
    simulator = await simulateDevices(owner, fleet, 1);
    const [online] = await devicesOnline(owner, fleetId, simulator);
    if (!online) throw new Error('no device');
    device = online;
  });
  afterAll(async () => {
    await simulator?.stop();
    await browser?.close();
  });

  it('lists the actions with their documentation, shows the settings, and moves from the summary', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    await page.goto(`/devices/${device.uuid}/actions`);
    const reboot = page.getByRole('region', { name: 'Reboot' });
    await reboot.getByRole('button', { name: 'Reboot' }).waitFor();
    expect(
      await reboot.getByRole('link', { name: 'Reboot: documentation' }).getAttribute('href'),
    ).toBe('/docs/devices');
    // The owner has no other fleet: moving is refused, and says why.
    const move = page.getByRole('region', { name: 'Move device' });
    await move.getByText('No applications with compatible arch').waitFor();
    expect(await move.getByRole('button', { name: 'Move device' }).isDisabled()).toBe(true);
    await page.screenshot({ path: 'data/e2e-screens/device-actions.png', fullPage: true });

    await page
      .getByRole('tablist', { name: 'Device sections' })
      .getByRole('tab', { name: 'Settings' })
      .click();
    await page.getByRole('region', { name: 'Device settings' }).waitFor();
    await page.getByText("Tracks the fleet's release").waitFor();
    await page.screenshot({ path: 'data/e2e-screens/device-settings.png', fullPage: true });

    await page.getByRole('tab', { name: 'Summary' }).click();
    await page
      .getByRole('region', { name: 'Device summary' })
      .getByRole('button', { name: 'Move device to another fleet' })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Move device' }).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/device-move.png' });
    await page.context().close();
  });
});
