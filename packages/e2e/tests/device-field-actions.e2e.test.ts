import type { Simulator } from '@flotilla/agent/simulator';
import { deactivatedMessage, localModeOnMessage } from '@flotilla/agent/device-agent';
import { localModeMessages } from '@flotilla/shared/devices/local-mode';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { devicePage, openActionDialog } from '../support/pages/device-pages.js';
import { createRelease } from '../support/releases.js';
import { type SimulatedDevice, simulateOnline } from '../support/simulated-fleet.js';

// The Action-menu entries of one device, from its page, on simulated devices: pin to a
// release and back to tracking, local mode refused on a production OS and allowed on a
// development one, support access until a chosen date, deactivate after typing the name (and
// the device itself reports that it is inactive).

const logs = (page: Page) => page.getByRole('log', { name: 'Device logs' });

// The simulator’s seed 1 gives a fleet of two a development-OS device and a production-OS one.
const seed = 1;

describe('device actions from the device page', () => {
  let browser: Browser;
  let owner: ApiUser;
  let simulator: Simulator;
  let dev: SimulatedDevice;
  let prod: SimulatedDevice;
  let older: { id: number; commit: string };
  let latest: { id: number; commit: string };

  const deviceRow = async (device: SimulatedDevice) => {
    const [row] = await owner.client.pine.get({
      resource: 'device',
      options: {
        $select: [
          'is_pinned_on__release',
          'is_running__release',
          'is_accessible_by_support_until__date',
          'is_active',
        ],
        $filter: { id: device.id },
      },
    });
    if (!row) throw new Error(`device ${device.device_name} missing`);
    return {
      pinned: row.is_pinned_on__release?.__id ?? null,
      running: row.is_running__release?.__id ?? null,
      supportUntil: row.is_accessible_by_support_until__date,
      active: row.is_active,
    };
  };

  // The system lines the device has sent to its logs.
  const reportedLines = async (device: SimulatedDevice): Promise<string[]> => {
    const lines = await owner.client.request<{ message: string; isSystem?: boolean }[]>({
      method: 'GET',
      path: `/device/v2/${device.uuid}/logs`,
    });
    return lines.filter((line) => line.isSystem === true).map((line) => line.message);
  };

  const openDevice = async (device: SimulatedDevice): Promise<Page> => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    await devicePage(page).open(device.uuid);
    await devicePage(page).heading(device.device_name).waitFor();
    return page;
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('devactions');
    const fleetId = await createFleet(owner, 'Device-Actions');
    older = await createRelease(owner, fleetId, ['main']);
    latest = await createRelease(owner, fleetId, ['main']);
    const online = await simulateOnline(owner, fleetId, 2, seed);
    simulator = online.simulator;
    const variants = await owner.client.pine.get({
      resource: 'device',
      options: { $select: ['id', 'os_variant'], $filter: { belongs_to__application: fleetId } },
    });
    const variantOf = (device: SimulatedDevice) =>
      variants.find((row) => row.id === device.id)?.os_variant;
    const found = {
      dev: online.devices.find((device) => variantOf(device) === 'dev'),
      prod: online.devices.find((device) => variantOf(device) === 'prod'),
    };
    if (!found.dev || !found.prod) {
      throw new Error(
        `seed ${seed} should give one dev and one prod device: ${JSON.stringify(variants)}`,
      );
    }
    dev = found.dev;
    prod = found.prod;
  });
  afterAll(async () => {
    await simulator?.stop();
    await browser?.close();
  });

  it('pins the device to an older release, which it then runs, and back to tracking', async () => {
    const page = await openDevice(prod);
    const device = devicePage(page);
    let dialog = await openActionDialog(page, 'Pin to release');
    await dialog.getByRole('combobox', { name: 'Release' }).click();
    await page.getByRole('option', { name: new RegExp(older.commit.slice(0, 7)) }).click();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await device.toast(`Changed the release of ${prod.device_name}`).waitFor();
    await expect.poll(() => device.field('Target release').textContent()).toContain('Pinned');
    // The simulated device downloads and runs the pinned release.
    await expect
      .poll(() => deviceRow(prod), { timeout: 60_000 })
      .toMatchObject({ pinned: older.id, running: older.id });
    await page.screenshot({ path: 'data/e2e-screens/device-pinned.png', fullPage: true });

    dialog = await openActionDialog(page, 'Pin to release');
    await dialog.getByRole('combobox', { name: 'Release' }).click();
    await page.getByRole('option', { name: /Track the fleet release/ }).click();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect
      .poll(() => device.field('Target release').textContent())
      .toContain('Default (tracks the fleet)');
    await expect
      .poll(() => deviceRow(prod), { timeout: 60_000 })
      .toMatchObject({ pinned: null, running: latest.id });
    await page.context().close();
  });

  it('refuses local mode on a production OS with the reason, and turns it on for a development OS', async () => {
    let page = await openDevice(prod);
    // On a production OS the menu offers local mode disabled, with the reason under it.
    await devicePage(page).actionsButton().click();
    const localMode = page.getByRole('menuitem', { name: /^Local mode/ });
    await expect.poll(() => localMode.textContent()).toContain(localModeMessages.notDev);
    expect(await localMode.getAttribute('aria-disabled')).toBe('true');
    await page.screenshot({ path: 'data/e2e-screens/device-local-mode-refused.png' });
    await page.context().close();

    page = await openDevice(dev);
    const device = devicePage(page);
    expect(await device.field('Local mode').textContent()).toBe('Off');
    const dialog = await openActionDialog(page, 'Local mode');
    expect(await dialog.getByText(localModeMessages.notDev).count()).toBe(0);
    await dialog.getByRole('radio', { name: 'Enable local mode' }).check();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await device.toast(`Changed local mode of ${dev.device_name}`).waitFor();
    await expect.poll(() => device.field('Local mode').textContent()).toBe('On');
    // The console stops showing logs (as balena's does); the device reports the change in them.
    await page.getByText('Logs are not available in local mode').waitFor();
    await expect.poll(() => reportedLines(dev), { timeout: 30_000 }).toContain(localModeOnMessage);
    await page.context().close();
  });

  it('grants support access until the chosen date', async () => {
    const page = await openDevice(prod);
    const device = devicePage(page);
    expect(await device.field('Support access').textContent()).toBe('Off');
    const dialog = await openActionDialog(page, 'Support access');
    // Three days ahead at noon, local time (the browser runs on this machine's clock and zone).
    const chosen = new Date();
    chosen.setDate(chosen.getDate() + 3);
    chosen.setHours(12, 0, 0, 0);
    const pad = (value: number) => String(value).padStart(2, '0');
    const local = `${chosen.getFullYear()}-${pad(chosen.getMonth() + 1)}-${pad(chosen.getDate())}T12:00`;
    await dialog.getByLabel('Grant until').fill(local);
    // Apply waits for the debounced date check, then grants.
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await device.toast(`Changed support access to ${prod.device_name}`).waitFor();
    await expect
      .poll(async () => {
        const until = (await deviceRow(prod)).supportUntil;
        return until === null ? null : Date.parse(until);
      })
      .toBe(chosen.getTime());
    await expect.poll(() => device.field('Support access').textContent()).toMatch(/^Expires on /);
    await page.context().close();
  });

  it('deactivates the device after its name is typed; the device reports itself inactive', async () => {
    const page = await openDevice(prod);
    const device = devicePage(page);
    const dialog = await openActionDialog(page, 'Deactivate device');
    const confirm = dialog.getByRole('button', { name: 'Deactivate', exact: true });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(`Type "${prod.device_name}" to confirm`).fill(prod.device_name);
    await page.screenshot({ path: 'data/e2e-screens/device-deactivate.png' });
    await confirm.click();
    await device.toast(`Deactivated ${prod.device_name}`).waitFor();
    await expect.poll(async () => (await deviceRow(prod)).active).toBe(false);
    await expect.poll(() => device.field('Active').textContent()).toBe('No');
    // The target state told the device: its agent knows, and says so in the device's logs.
    const handle = simulator.devices.find((candidate) => candidate.uuid === prod.uuid);
    await expect.poll(() => handle?.agent?.active, { timeout: 30_000 }).toBe(false);
    await logs(page).getByText(deactivatedMessage).waitFor({ timeout: 30_000 });
    // Deactivating again is offered disabled, with the reason.
    await device.actionsButton().click();
    const deactivate = page.getByRole('menuitem', { name: /^Deactivate device/ });
    expect(await deactivate.getAttribute('aria-disabled')).toBe('true');
    expect(await deactivate.textContent()).toContain('Device already inactive');
    await page.screenshot({ path: 'data/e2e-screens/device-deactivated.png', fullPage: true });
    await page.context().close();
  });
});
