import type { Simulator } from '@flotilla/agent/simulator';
import { createFlotillaClient } from '@flotilla/sdk/create-client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { baseUrl, launchBrowser, newPage } from '../support/browser.js';
import { devicePage, fleetDevicesPage, openActionDialog } from '../support/pages/device-pages.js';
import { type SimulatedDevice, simulateOnline } from '../support/simulated-fleet.js';

// OS and supervisor updates from the Actions menu on simulated devices: the administrator keeps
// a catalogue; the fleet owner updates the OS of the whole selection, and the device page then
// shows the update the device runs.

const osVersions = ['5.3.24', '6.0.13', '6.1.24', '6.3.18', '6.5.9', '6.6.0'];
const supervisorVersions = ['16.7.9', '16.12.5', '17.0.1', '17.1.4', '17.2.0'];

// Every running animation and transition of the page has finished (the menu's fade-out, the
// dialog's fade-in), so a screenshot shows the screen as the user then sees it. Endless ones
// (spinners) are left out: they never finish.
const settled = (page: Page): Promise<unknown> =>
  page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        // A cancelled one (the element went away) rejects: it is over too.
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );

describe('host OS updates', () => {
  let browser: Browser;
  let owner: ApiUser;
  let fleetId: number;
  let simulator: Simulator;
  let devices: SimulatedDevice[];

  const targets = async () =>
    (
      await owner.client.pine.get({
        resource: 'device',
        options: {
          $select: ['id'],
          $filter: { belongs_to__application: fleetId },
          $expand: { should_be_operated_by__release: { $select: ['raw_version'] } },
        },
      })
    ).map((row) => row.should_be_operated_by__release[0]?.raw_version ?? null);

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('hostos');
    fleetId = await createFleet(owner, 'Host-OS');
    const online = await simulateOnline(owner, fleetId, 2, 1);
    simulator = online.simulator;
    devices = online.devices;
    const types = await owner.client.pine.get({
      resource: 'device_type',
      options: { $select: ['slug'], $expand: { is_of__cpu_architecture: { $select: ['slug'] } } },
    });
    // One unified image per version serves development and production devices alike.
    const releases = [
      ...types.flatMap((type) =>
        osVersions.map((version) => ({
          kind: 'os',
          deviceType: type.slug,
          version,
          variant: '',
          phase: version === '6.6.0' ? 'current' : 'sunset',
          notes: `* balenaOS ${version}`,
        })),
      ),
      ...[...new Set(types.flatMap((type) => type.is_of__cpu_architecture.map((a) => a.slug)))]
        .filter((architecture) => architecture !== '')
        .flatMap((cpuArchitecture) =>
          supervisorVersions.map((version) => ({ kind: 'supervisor', cpuArchitecture, version })),
        ),
    ];
    const admin = createFlotillaClient({ apiUrl: baseUrl() });
    await admin.auth.login({ email: inject('adminEmail'), password: inject('adminPassword') });
    await admin.request({
      method: 'POST',
      path: '/admin/v1/host-os/catalogue',
      body: { releases },
    });
  });
  afterAll(async () => {
    await simulator?.stop();
    await browser?.close();
  });

  it('updates the OS of the selection and shows the update on the device page', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const table = fleetDevicesPage(page);
    await table.open(fleetId);
    await table.row(devices[0]?.device_name ?? '').waitFor();
    await table.selectPage();
    const dialog = await openActionDialog(page, 'Update OS');
    const picker = dialog.getByRole('combobox', { name: 'OS version' });
    await expect.poll(() => picker.textContent()).toContain('6.6.0');
    await dialog.getByRole('table', { name: 'Devices and their eligibility' }).waitFor();
    await settled(page);
    await page.screenshot({ path: 'data/e2e-screens/os-update-batch.png' });
    await dialog.getByRole('button', { name: 'Update OS' }).click();
    await table.toast('Started the OS update of 2 devices').waitFor();
    expect(await targets()).toEqual(['6.6.0', '6.6.0']);

    const device = devicePage(page);
    await device.open(devices[0]?.uuid ?? '');
    await expect
      .poll(() => device.field('Host OS version').textContent())
      .toContain('Updating OS to 6.6.0');
    await page.screenshot({ path: 'data/e2e-screens/os-update-pending.png', fullPage: true });

    const supervisor = await openActionDialog(page, 'Update supervisor');
    await expect
      .poll(() => supervisor.getByRole('combobox', { name: 'Supervisor version' }).textContent())
      .toContain('17.2.0');
    const confirm = supervisor.getByRole('button', { name: 'Update supervisor' });
    await expect.poll(() => confirm.isEnabled()).toBe(true);
    // Only for the picture: the page's transitions (the button's colour) have ended.
    await settled(page);
    await page.screenshot({ path: 'data/e2e-screens/supervisor-update.png' });
    await confirm.click();
    await device
      .toast(`Started the supervisor update of ${devices[0]?.device_name ?? ''}`)
      .waitFor();
    await expect
      .poll(() => device.field('Supervisor version').textContent())
      .toContain('Updating supervisor to 17.2.0');
    await page.context().close();
  });
});
