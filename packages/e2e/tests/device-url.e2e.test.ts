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

// Turn a simulated device's public URL on from its Actions menu, follow the link the
// console shows and read the device's status page through Flotilla's proxy, which is
// `http://<uuid>.localhost:<port>/` here (no DNS: Chromium resolves *.localhost itself).

const openAction = async (page: Page, label: string) => {
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: new RegExp(`^${label}`) }).click();
  return page.getByRole('dialog');
};

describe('public device URL', () => {
  let browser: Browser;
  let owner: ApiUser;
  let simulator: Simulator;
  let device: SimulatedDevice;

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('weburl');
    const fleetId = await createFleet(owner, 'Web-Url-Fleet');
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

  it('turns the URL on and opens the device’s page through the proxy', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    await page.goto(`/devices/${device.uuid}`);
    const dialog = await openAction(page, 'Public device URL');
    await dialog.getByRole('radio', { name: 'Enable the public device URL' }).check();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const reopened = await openAction(page, 'Public device URL');
    const link = reopened.getByRole('link', { name: new RegExp(`${device.uuid}\\.localhost`) });
    const href = await link.getAttribute('href');
    expect(href).toMatch(new RegExp(`^http://${device.uuid}\\.localhost:\\d+/$`));
    if (!href) throw new Error('no link');

    const devicePage = await page.context().newPage();
    const answer = await devicePage.goto(href);
    expect(answer?.status()).toBe(200);
    await expect
      .poll(() => devicePage.getByRole('heading', { level: 1 }).textContent())
      .toBe(device.device_name);
    expect(await devicePage.textContent('body')).toContain(device.uuid);
    await devicePage.screenshot({ path: 'data/e2e-screens/device-url.png' });

    // Off again: the same address answers the proxy's own 404 page.
    await owner.client.pine.patch({
      resource: 'device',
      id: device.id,
      body: { is_web_accessible: false },
    });
    const gone = await devicePage.goto(href);
    expect(gone?.status()).toBe(404);
    expect(await devicePage.textContent('h1')).toBe('Device URL not found');
    await page.context().close();
  });
});
