import type { Simulator } from '@flotilla/agent/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { fleetDevicesPage } from '../support/pages/device-pages.js';
import { createRelease } from '../support/releases.js';
import {
  devicesOnline,
  type SimulatedDevice,
  simulateDevices,
} from '../support/simulated-fleet.js';

// Field actions and tags in batch from the devices table, on simulated devices: pin to a release
// and back to tracking, add and remove a tag, move to another fleet and land there.

const openAction = async (page: Page, label: string) => {
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: new RegExp(`^${label}`) }).click();
  return page.getByRole('dialog');
};

describe('batch device actions', () => {
  let browser: Browser;
  let owner: ApiUser;
  let fleetId: number;
  let targetId: number;
  let release: { id: number; commit: string };
  let simulator: Simulator;
  let devices: SimulatedDevice[];

  const column = async (field: 'is_pinned_on__release' | 'belongs_to__application') => {
    const rows = await owner.client.pine.get({
      resource: 'device',
      options: { $select: ['id', field], $filter: { id: { $in: devices.map((d) => d.id) } } },
    });
    return rows.map((row) => row[field]?.__id ?? null);
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('batchops');
    fleetId = await createFleet(owner, 'Batch-Home');
    targetId = await createFleet(owner, 'Batch-Target');
    release = await createRelease(owner, fleetId, ['main']);
    const [fleet] = await owner.client.pine.get({
      resource: 'application',
      options: { $select: ['id', 'slug'], $filter: { id: fleetId } },
    });
    if (!fleet) throw new Error('fleet missing');
    simulator = await simulateDevices(owner, fleet, 2);
    devices = await devicesOnline(owner, fleetId, simulator);
  });
  afterAll(async () => {
    await simulator.stop();
    await browser.close();
  });

  it('pins the selection to a release and back to tracking the fleet', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const table = fleetDevicesPage(page);
    await table.open(fleetId);
    await table.row(devices[0]?.device_name ?? '').waitFor();
    await table.selectPage();
    let dialog = await openAction(page, 'Pin to release');
    await dialog.getByRole('combobox', { name: 'Release' }).click();
    await page.getByRole('option', { name: new RegExp(release.commit.slice(0, 7)) }).click();
    await page.screenshot({ path: 'data/e2e-screens/device-batch-pin.png' });
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await table.toast('Changed the release of 2 devices').waitFor();
    expect(await column('is_pinned_on__release')).toEqual([release.id, release.id]);
    dialog = await openAction(page, 'Pin to release');
    await dialog.getByRole('combobox', { name: 'Release' }).click();
    await page.getByRole('option', { name: /Track the fleet release/ }).click();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => column('is_pinned_on__release')).toEqual([null, null]);
    await page.context().close();
  });

  it('adds a tag to the selection, shows it as a column, and removes it', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const table = fleetDevicesPage(page);
    await table.open(fleetId, 'tagcols=site');
    await table.row(devices[0]?.device_name ?? '').waitFor();
    await table.selectPage();
    await page.getByRole('button', { name: 'Tags', exact: true }).click();
    let dialog = page.getByRole('dialog', { name: 'Manage tags (2 devices)' });
    await dialog.getByLabel('New tag key').fill('site');
    await dialog.getByLabel('New tag value').fill('lab');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await table.toast('Updated the tags of 2 devices').waitFor();
    for (const device of devices) {
      await table.row(device.device_name).getByText('site: lab').waitFor();
    }
    await expect
      .poll(() => table.table().getByRole('cell', { name: 'lab', exact: true }).count())
      .toBe(2);
    await page.screenshot({ path: 'data/e2e-screens/device-batch-tags.png', fullPage: true });
    await page.getByRole('button', { name: 'Tags', exact: true }).click();
    dialog = page.getByRole('dialog', { name: 'Manage tags (2 devices)' });
    await dialog.getByRole('button', { name: 'Remove site' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => table.table().getByText('site: lab').count()).toBe(0);
    await page.context().close();
  });

  it('sets a manual location on a device and shows the fleet on the map', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const device = devices[0];
    if (!device) throw new Error('no device');
    await page.goto(`/devices/${device.uuid}/location`);
    await page.getByLabel('Manual location').check();
    await page.getByLabel('Latitude').fill('48.8566');
    await page.getByLabel('Longitude').fill('2.3522');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => {
        const [row] = await owner.client.pine.get({
          resource: 'device',
          options: { $select: ['custom_latitude', 'custom_longitude'], $filter: { id: device.id } },
        });
        return row;
      })
      .toEqual({ custom_latitude: '48.8566', custom_longitude: '2.3522' });
    const map = page.getByRole('region', { name: 'Map' });
    await map.locator('path.leaflet-interactive').waitFor();
    await page.screenshot({ path: 'data/e2e-screens/device-location.png', fullPage: true });
    const table = fleetDevicesPage(page);
    await table.open(fleetId);
    await page.getByRole('button', { name: 'Map' }).click();
    await page.waitForURL(/view=map/);
    // The simulator reports a position for every device: all of them are on the map.
    await page.getByRole('status').filter({ hasText: '2 on the map' }).waitFor();
    await page
      .getByRole('region', { name: 'Fleet map' })
      .locator('path.leaflet-interactive')
      .first()
      .waitFor();
    await page.screenshot({ path: 'data/e2e-screens/fleet-map.png', fullPage: true });
    await page.context().close();
  });

  it('moves the selection to another fleet and lands there', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const table = fleetDevicesPage(page);
    await table.open(fleetId);
    await table.row(devices[0]?.device_name ?? '').waitFor();
    await table.selectPage();
    const dialog = await openAction(page, 'Move device');
    await dialog.getByRole('combobox', { name: 'Fleet' }).click();
    // The devices' own fleet is offered disabled, with the reason.
    const home = page.getByRole('option', { name: /Batch-Home/ });
    expect(await home.getAttribute('aria-disabled')).toBe('true');
    await page.getByRole('option', { name: /Batch-Target/ }).click();
    await page.screenshot({ path: 'data/e2e-screens/device-batch-move.png' });
    await dialog.getByRole('button', { name: 'Move' }).click();
    await page.waitForURL(new RegExp(`/fleets/${targetId}`));
    expect(await column('belongs_to__application')).toEqual([targetId, targetId]);
    await page.context().close();
  });
});
