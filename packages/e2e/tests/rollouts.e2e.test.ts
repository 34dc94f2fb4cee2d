import type { Simulator } from '@flotilla/agent/simulator';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { createRelease } from '../support/releases.js';
import { simulateOnline } from '../support/simulated-fleet.js';

// A staged rollout in the console: planned from a release page (expected devices per wave),
// started on simulated devices, shown live (waves, devices, timeline), on the fleet summary,
// paused and aborted.
describe('staged rollouts', () => {
  let browser: Browser;
  let owner: ApiUser;
  let fleetId: number;
  let older: { id: number };
  let newer: { id: number };
  let simulator: Simulator | undefined;

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('rollouts');
    fleetId = await createFleet(owner, 'Rollout-Waves');
    older = await createRelease(owner, fleetId, ['main']);
    newer = await createRelease(owner, fleetId, ['main']);
    // createRelease pins the fleet to its release: the fleet runs the older one.
    await owner.client.pine.patch({
      resource: 'application',
      id: fleetId,
      body: { should_be_running__release: older.id },
    });
    // Two simulated devices: the first wave holds one, which soaks (30 min) while the test runs.
    ({ simulator } = await simulateOnline(owner, fleetId, 2));
  });
  afterAll(async () => {
    await simulator?.stop();
    await browser?.close();
  });

  it('plans, starts, shows, pauses and aborts a rollout', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    await page.goto(`/fleets/${fleetId}/releases/${newer.id}`);
    await page.getByRole('link', { name: 'Roll out in waves' }).click();
    await page.waitForURL(`**/fleets/${fleetId}/rollouts/new?release=${newer.id}`);

    const waves = page.getByLabel('Waves (% of the fleet)');
    await waves.fill('50, 10');
    await page.getByRole('button', { name: 'Preview device counts' }).click();
    const form = page.getByRole('region', { name: 'Plan the rollout' });
    await form.getByText(/Wave percentages must rise from wave to wave/).waitFor();
    await waves.fill('50, 100');
    await page.getByRole('button', { name: 'Preview device counts' }).click();
    const preview = page.getByRole('list', { name: 'Expected devices per wave' });
    await preview.getByText('Wave 2: 100 % of the fleet').waitFor();
    expect(await preview.getByText('1 device', { exact: true }).count()).toBe(2);

    await page.getByRole('button', { name: 'Start rollout' }).click();
    await page.waitForURL(new RegExp(`/fleets/${fleetId}/rollouts/\\d+$`));
    await page.getByRole('table', { name: 'Waves' }).getByText('50 % of the fleet').waitFor();
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await timeline.getByText(/^Started: 2 devices in 2 waves/).waitFor();
    // Per-device state: one device in wave 1 on its way to the target, one waiting in wave 2.
    const devices = page.getByRole('table', { name: 'Devices in the rollout' });
    await devices.getByRole('cell', { name: 'pending' }).waitFor();
    const rolloutPath = new URL(page.url()).pathname;

    await page.goto(`/fleets/${fleetId}`);
    await page.getByText(/Rollout to release \d+/).waitFor();
    await page.getByRole('link', { name: 'Open', exact: true }).click();
    await page.waitForURL(`**${rolloutPath}`);

    await page.getByRole('button', { name: 'Pause' }).click();
    await timeline.getByText('Paused').waitFor();
    await page.getByRole('button', { name: 'Resume' }).waitFor();
    await page.getByRole('button', { name: 'Abort' }).click();
    await timeline.getByText(/^Aborted/).waitFor();
    await expect.poll(async () => page.getByRole('button', { name: 'Abort' }).count()).toBe(0);
    await page.screenshot({ path: 'data/e2e-screens/rollout.png', fullPage: true });
  });
});
