import type { Simulator } from '@flotilla/agent/simulator';
import type { SimulatedDeviceHandle } from '@flotilla/agent/simulator-device';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addFleetMember,
  type ApiUser,
  createFleet,
  logInAs,
  registerUser,
} from '../support/api-setup.js';
import { waitUntil } from '../support/balena-sdk-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { variablesPage } from '../support/pages/variables-pages.js';
import { createRelease } from '../support/releases.js';
import {
  devicesOnline,
  type SimulatedDevice,
  simulateDevices,
} from '../support/simulated-fleet.js';

type LogLine = { message: string; isSystem: boolean; serviceId?: number };

// Variables edited in the console through staged changes reach the simulated devices.
describe('variables and configuration', () => {
  let browser: Browser;
  let owner: ApiUser;
  let fleetId: number;
  let services: Record<string, number>;
  let simulator: Simulator;
  let device: SimulatedDevice;
  let handle: SimulatedDeviceHandle;

  const logsOf = (uuid: string) =>
    owner.client.request<LogLine[]>({ path: `/device/v2/${uuid}/logs?count=500` });

  const environmentOf = (service: string) =>
    handle.device.services.find((candidate) => candidate.name === service)?.environment;

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('variables');
    fleetId = await createFleet(owner, 'Var-Sensors');
    const [fleet] = await owner.client.pine.get({
      resource: 'application',
      options: { $select: ['id', 'slug'], $filter: { id: fleetId } },
    });
    if (!fleet) throw new Error('fleet missing');
    services = (await createRelease(owner, fleetId, ['main', 'proxy'])).serviceIds;
    simulator = await simulateDevices(owner, fleet, 1);
    const [online] = await devicesOnline(owner, fleetId, simulator);
    const found = simulator.devices.find((candidate) => candidate.uuid === online?.uuid);
    if (!online || !found) throw new Error('no simulated device');
    device = online;
    handle = found;
    // The device reported both services running: they have their installs.
    const deviceId = device.id;
    await waitUntil(
      'the device to run both services',
      () =>
        owner.client.pine.get({
          resource: 'service_install',
          options: { $select: ['id'], $filter: { device: deviceId } },
        }),
      (installs) => installs.length === 2,
      { timeoutMs: 60_000, intervalMs: 500 },
    );
  });
  afterAll(async () => {
    await simulator?.stop();
    await browser?.close();
  });

  it('applies a fleet variable, a service variable and a device override: the device restarts its services with them', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const view = variablesPage(page);
    await view.openFleet(fleetId);
    await view.table().waitFor();
    await page.screenshot({ path: 'data/e2e-screens/fleet-envvars-empty.png', fullPage: true });
    await view.add('GREETING', 'hello', 'All services');
    await view.add('MODE', 'fast', 'main');
    await expect.poll(() => view.row('MODE', 'main').getAttribute('data-staged')).toBe('added');
    await page.screenshot({ path: 'data/e2e-screens/fleet-envvars-staged.png', fullPage: true });
    await view.applyAll();
    await view.toast('All changes successful').waitFor();
    await view.bar().waitFor({ state: 'detached' });

    // The device recreates main with both variables and proxy with the fleet-wide one.
    await expect
      .poll(() => environmentOf('main'), { timeout: 60_000 })
      .toEqual({ GREETING: 'hello', MODE: 'fast' });
    await expect.poll(() => environmentOf('proxy')).toEqual({ GREETING: 'hello' });
    // Its logs say so: the agent replacing main's container, then main itself with the new
    // values (once, or twice should a poll fall between the two writes).
    const mainLines = async () =>
      (await logsOf(device.uuid))
        .filter((line) => line.serviceId === services.main)
        .map((line) => line.message)
        .join('\n');
    await expect.poll(mainLines, { timeout: 60_000 }).toMatch(/^Killed service 'main'$/m);
    await expect.poll(mainLines).toMatch(/^Installing service 'main'$/m);
    await expect.poll(mainLines).toMatch(/^Started with .*GREETING=hello/m);
    await expect.poll(mainLines).toMatch(/^Started with .*MODE=fast/m);

    // The device overrides GREETING for all its services.
    await view.openDevice(device.uuid);
    await view.table('Device environment variables').waitFor();
    await view.edit('GREETING', 'bonjour', 'Override GREETING on this device');
    await page.screenshot({ path: 'data/e2e-screens/device-envvars-staged.png', fullPage: true });
    await view.applyAll();
    await view.toast('All changes successful').waitFor();
    await expect
      .poll(() => environmentOf('main'), { timeout: 60_000 })
      .toEqual({ GREETING: 'bonjour', MODE: 'fast' });
    await expect
      .poll(
        async () =>
          (await logsOf(device.uuid))
            .filter((line) => line.message === 'Started with GREETING=bonjour')
            .map((line) => line.serviceId)
            .sort(),
        { timeout: 60_000 },
      )
      .toEqual([services.main, services.proxy].sort());
    await expect
      .poll(() =>
        view.row('GREETING', 'All services', 'Device environment variables').textContent(),
      )
      .toMatch(/hello.*bonjour/);
    await page.screenshot({ path: 'data/e2e-screens/device-envvars.png', fullPage: true });
    await page.context().close();
  });

  it('stages three edits, undoes one, reverts all, and warns before leaving with edits', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const view = variablesPage(page);
    await view.openFleet(fleetId);
    await view.row('GREETING').waitFor();
    await view.add('TEMP_ONE', '1', 'All services');
    await view.add('TEMP_TWO', '2', 'proxy');
    await view.remove('GREETING');
    await expect.poll(() => view.bar().textContent()).toMatch(/3 changes not applied yet/);
    await view.undo('TEMP_TWO of proxy');
    await expect.poll(() => view.row('TEMP_TWO', 'proxy').count()).toBe(0);
    await expect.poll(() => view.bar().textContent()).toMatch(/2 changes not applied yet/);

    // Leaving asks first; staying keeps the edits.
    await page.getByRole('tab', { name: 'Devices' }).click();
    await view.leaveDialog().getByText('Changes not saved, confirm to leave').waitFor();
    await page.screenshot({ path: 'data/e2e-screens/leave-warning.png', fullPage: true });
    await view.leaveDialog().getByRole('button', { name: 'Stay' }).click();
    await view.leaveDialog().waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe(`/fleets/${fleetId}/envvars`);

    await view.revertAll();
    await view.bar().waitFor({ state: 'detached' });
    expect(await view.row('TEMP_ONE').count()).toBe(0);
    expect(await view.row('GREETING').getAttribute('data-staged')).toBeNull();
    // Nothing was written.
    const names = (
      await owner.client.pine.get({
        resource: 'application_environment_variable',
        options: { $select: ['name'], $filter: { application: fleetId } },
      })
    ).map((row) => row.name);
    expect(names.sort()).toEqual(['GREETING']);

    // The browser's own prompt guards a reload (or closing the tab) with staged edits.
    await view.remove('GREETING');
    const prompt = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.type());
        void dialog.accept();
      }),
    );
    await page.reload();
    expect(await prompt).toBe('beforeunload');
    // Nothing staged after the reload: leaving is free.
    await view.row('GREETING').waitFor();
    await page.getByRole('tab', { name: 'Devices' }).click();
    await page.waitForURL(`**/fleets/${fleetId}/devices`);
    await page.context().close();
  });

  it('shows every naming rule for a bad name before anything is sent', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const view = variablesPage(page);
    await view.openFleet(fleetId);
    await view.row('GREETING').waitFor();
    const form = await view.fillAdd('', 'x');
    const name = form.getByLabel('Name');
    const expectMessage = async (typed: string, message: string) => {
      await name.fill(typed);
      await form.getByRole('button', { name: 'Add' }).click();
      await form.getByText(message, { exact: true }).waitFor();
    };
    await expectMessage('', 'Name is required');
    await form.getByText('Service is required', { exact: true }).waitFor();
    await expectMessage(
      '9LIVES',
      'Environment variable names must start with a letter and contain only letters, digits and underscores',
    );
    await expectMessage(
      'BALENA_SUPERVISOR_POLL_INTERVAL',
      'Configuration variables are managed through the Configuration page.',
    );
    await expectMessage('USER', 'This environment variable is reserved and cannot be used.');
    await expectMessage(
      'RESIN_SOMETHING',
      'Variables beginning with RESIN_ or BALENA_ are managed through the Configuration page.',
    );
    await form.getByLabel('Service').click();
    await page.getByRole('option', { name: 'All services', exact: true }).click();
    await expectMessage('GREETING', 'A variable with this name already exists');
    await page.screenshot({ path: 'data/e2e-screens/variable-validation.png', fullPage: true });
    await form.getByRole('button', { name: 'Cancel' }).click();
    expect(await view.bar().count()).toBe(0);
    await page.context().close();
  });

  it('deletes a device override from the overrides dialog', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const view = variablesPage(page);
    await view.openFleet(fleetId);
    await view.overrides('GREETING');
    const dialog = view.dialog('Overrides of GREETING');
    await dialog.getByRole('cell', { name: 'bonjour' }).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/overrides-dialog.png', fullPage: true });
    await dialog
      .getByRole('button', { name: `Delete the override of ${device.device_name}` })
      .click();
    await dialog.getByText('No device overrides this variable.').waitFor();
    expect(
      await owner.client.pine.get({
        resource: 'device_environment_variable',
        options: { $select: ['id'], $filter: { device: device.id } },
      }),
    ).toEqual([]);
    // The device goes back to the fleet's value.
    await expect
      .poll(() => environmentOf('main'), { timeout: 60_000 })
      .toEqual({ GREETING: 'hello', MODE: 'fast' });
    await page.context().close();
  });

  it('changes the configuration: the device applies it', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const view = variablesPage(page);
    await view.openFleetConfig(fleetId);
    const table = view.table('Configuration');
    await table.waitFor();
    await page.screenshot({ path: 'data/e2e-screens/fleet-config.png', fullPage: true });
    await table.getByRole('switch', { name: 'BALENA_SUPERVISOR_DELTA', exact: true }).click();
    await view.applyAll();
    await view.toast('All changes successful').waitFor();
    await expect
      .poll(async () => (await logsOf(device.uuid)).map((line) => line.message), {
        timeout: 60_000,
      })
      .toContain('Applied configuration change BALENA_SUPERVISOR_DELTA=0');
    await page.context().close();
  });

  it('is read-only for an observer', async () => {
    const observer = await registerUser('observer');
    await addFleetMember(owner, fleetId, observer, 'observer');
    const page = await newPage(browser);
    await logInAs(page, observer);
    const view = variablesPage(page);
    await view.openFleet(fleetId);
    await view.row('GREETING').waitFor();
    await view.readOnlyNotice().waitFor();
    expect(await view.addButton().count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Edit|Delete) / }).count()).toBe(0);
    await page.screenshot({ path: 'data/e2e-screens/fleet-envvars-observer.png', fullPage: true });
    await view.openFleetConfig(fleetId);
    await view.readOnlyNotice().waitFor();
    expect(
      await view
        .table('Configuration')
        .getByRole('switch', { name: 'BALENA_SUPERVISOR_VPN_CONTROL', exact: true })
        .isDisabled(),
    ).toBe(true);
    // Observers do not see the API keys tab.
    expect(await page.getByRole('tab', { name: 'API keys' }).count()).toBe(0);
    await page.context().close();
  });
});
