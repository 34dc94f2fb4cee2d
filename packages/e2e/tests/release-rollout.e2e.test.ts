import type { Simulator } from '@flotilla/agent/simulator';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { waitUntil } from '../support/balena-sdk-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { projectTarball } from '../support/compose-project.js';
import { devicePage, fleetDevicesPage } from '../support/pages/device-pages.js';
import { releasePages } from '../support/pages/release-pages.js';
import { createRelease } from '../support/releases.js';
import { type SimulatedDevice, simulateOnline } from '../support/simulated-fleet.js';

type Running = {
  uuid: string;
  running: number | null;
  target: number | null;
  status: string;
  // The device's image installs: which release provides each, and its container's state.
  installs: { release: number; status: string }[];
};

// A release made from an uploaded compose project reaches the fleet's devices. The
// simulated devices (the real agent in simulator mode) run an older release first, so the new
// one is an update: downloaded, swapped in and reported back, which the console then shows.
describe('release rollout to simulated devices', () => {
  let browser: Browser;
  let owner: ApiUser;
  let fleetId: number;
  let simulator: Simulator | undefined;
  let devices: SimulatedDevice[];
  let older: { id: number };

  // What the API says each device runs, should run and has installed.
  const runningReleases = async (): Promise<Running[]> => {
    const rows = await owner.client.pine.get({
      resource: 'device',
      options: {
        $select: ['uuid', 'is_running__release', 'should_be_running__release', 'overall_status'],
        $filter: { belongs_to__application: fleetId },
        $expand: { image_install: { $select: ['status', 'is_provided_by__release'] } },
        $orderby: { id: 'asc' },
      },
    });
    return rows.map((row) => ({
      uuid: row.uuid,
      running: row.is_running__release?.__id ?? null,
      target: row.should_be_running__release?.__id ?? null,
      status: row.overall_status,
      installs: (row.image_install ?? []).map((install) => ({
        release: install.is_provided_by__release.__id,
        status: install.status,
      })),
    }));
  };

  // Every device reports that it runs the release, whose one service is running, and nothing
  // else (the older release's container is gone), and has nothing left to do.
  const allRun = (releaseId: number) => (rows: Running[]) =>
    rows.length === devices.length &&
    rows.every(
      (row) =>
        row.running === releaseId &&
        row.target === releaseId &&
        row.status === 'operational' &&
        row.installs.length === 1 &&
        row.installs.every(
          (install) => install.release === releaseId && install.status === 'Running',
        ),
    );

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('rollout');
    fleetId = await createFleet(owner, 'Rollout-Garden');
    older = await createRelease(owner, fleetId, ['main']);
    // createRelease pins the fleet to the release; the fleet tracks its latest release again.
    await owner.client.pine.patch({
      resource: 'application',
      id: fleetId,
      body: { should_track_latest_release: true },
    });
    ({ simulator, devices } = await simulateOnline(owner, fleetId, 2));
    // The devices install the older release before the new one exists.
    await waitUntil('the devices to run the older release', runningReleases, allRun(older.id), {
      timeoutMs: 60_000,
      intervalMs: 500,
    });
  });
  afterAll(async () => {
    await simulator?.stop();
    await browser?.close();
  });

  it('creates a release from an uploaded project and sees the devices update to it', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const releases = releasePages(page);
    await releases.openList(fleetId);
    await page.getByRole('button', { name: 'Create release' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create release' });
    await dialog.getByLabel('Project file').setInputFiles({
      name: 'project.tar.gz',
      mimeType: 'application/gzip',
      buffer: await projectTarball('services:\n  sensor:\n    image: alpine:3.20\n'),
    });
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.getByText('The release was created.').waitFor({ timeout: 60_000 });
    expect(await dialog.getByLabel('Build log').textContent()).toContain(
      '[sensor] Using image alpine:3.20',
    );
    await page.screenshot({ path: 'data/e2e-screens/rollout-release-created.png', fullPage: true });
    await dialog.getByRole('link', { name: 'Open release' }).click();
    await releases.summary().waitFor();
    const releaseId = Number(new URL(page.url()).pathname.split('/').pop());
    const created = await owner.client.pine.get({
      resource: 'release',
      id: releaseId,
      options: { $select: ['commit', 'raw_version', 'status'] },
    });
    expect(created?.status).toBe('success');
    // The console names a release by its version, or its short commit without one.
    const label = created?.raw_version ?? created?.commit.slice(0, 7) ?? '';
    // The console tells the two releases apart, so what it shows below is the new one.
    const previous = await owner.client.pine.get({
      resource: 'release',
      id: older.id,
      options: { $select: ['raw_version'] },
    });
    expect(previous?.raw_version).not.toBe(label);

    // The devices download the new release, swap it in and report it: the API shows each one
    // running it with nothing left to do, before the console is asked to show the same.
    await waitUntil('the devices to run the new release', runningReleases, allRun(releaseId), {
      timeoutMs: 90_000,
      intervalMs: 500,
    });

    // The devices table shows each device on the new release and online (no update pending);
    // the table refreshes by itself.
    const table = fleetDevicesPage(page);
    await table.open(fleetId);
    for (const device of devices) {
      const row = table.row(device.device_name);
      await expect.poll(() => row.textContent(), { timeout: 30_000 }).toContain(label);
      await expect
        .poll(() => table.statusOf(device.device_name).textContent(), { timeout: 15_000 })
        .toMatch(/Online/);
    }
    await page.screenshot({ path: 'data/e2e-screens/rollout-devices.png', fullPage: true });

    // A device's page: its current release is its target release, the new one.
    const first = devices[0];
    if (!first) throw new Error('no device');
    const view = devicePage(page);
    await view.open(first.uuid);
    await view.heading(first.device_name).waitFor();
    await expect
      .poll(() => view.field('Current release').textContent(), { timeout: 15_000 })
      .toBe(label);
    expect(await view.field('Target release').textContent()).toContain(label);
    await page.screenshot({ path: 'data/e2e-screens/rollout-device-page.png', fullPage: true });

    // The release's summary counts the devices running it.
    await page.goto(`/fleets/${fleetId}/releases/${releaseId}`);
    const summary = releases.summary();
    await expect
      .poll(() => summary.textContent(), { timeout: 30_000 })
      .toMatch(new RegExp(`Running on\\s*${devices.length} devices`));
    await page.context().close();
  });
});
