import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { releasePages } from '../support/pages/release-pages.js';
import { createRelease } from '../support/releases.js';

// Issue 12: a fleet's releases in the console: the list, a release's page, pinning the fleet to
// an older release from its summary, and the delete rule.
describe('releases', () => {
  let browser: Browser;
  let owner: ApiUser;
  let fleetId: number;
  let older: { id: number; commit: string };
  let newer: { id: number; commit: string };

  const fleetTarget = async () => {
    const fleet = await owner.client.pine.get({
      resource: 'application',
      id: fleetId,
      options: { $select: ['should_be_running__release', 'should_track_latest_release'] },
    });
    return fleet;
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('releases');
    fleetId = await createFleet(owner, 'Release-Garden');
    older = await createRelease(owner, fleetId, ['main']);
    newer = await createRelease(owner, fleetId, ['main', 'proxy']);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('lists the releases, opens one, pins the fleet to it and refuses deleting it', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const releases = releasePages(page);
    await releases.openList(fleetId);
    await releases.row(newer.commit).waitFor();
    await releases.row(older.commit).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/releases-list.png', fullPage: true });

    await releases.openRelease(newer.commit);
    await releases.summary().waitFor();
    await page.getByRole('table', { name: 'Services and images' }).getByText('proxy').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/fleets/${fleetId}/releases/${newer.id}`);
    await page.screenshot({ path: 'data/e2e-screens/release-summary.png', fullPage: true });

    // Pin the fleet to the older release from its summary.
    await page.goto(`/fleets/${fleetId}`);
    await releases.pinFleet(older.commit);
    await expect.poll(fleetTarget, { timeout: 15_000 }).toEqual({
      should_be_running__release: { __id: older.id },
      should_track_latest_release: false,
    });

    // The list marks the pin; the pinned release cannot be deleted, the other one can.
    await releases.openList(fleetId);
    await releases.row(older.commit).getByText('Pinned').waitFor();
    await releases.openRelease(older.commit);
    await releases.openSettings();
    expect(await releases.deleteButton().isDisabled()).toBe(true);
    await page.getByText(/Cannot delete a release that a fleet should run/).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/release-settings.png', fullPage: true });

    await releases.openList(fleetId);
    await releases.openRelease(newer.commit);
    await releases.openSettings();
    const shown = await owner.client.pine.get({
      resource: 'release',
      id: newer.id,
      options: { $select: ['raw_version'] },
    });
    await releases.delete(shown?.raw_version ?? '');
    await page.waitForURL(`**/fleets/${fleetId}`);
    const left = await owner.client.pine.get({
      resource: 'release',
      options: { $select: ['id'], $filter: { belongs_to__application: fleetId } },
    });
    expect(left).toEqual([{ id: older.id }]);
    await page.context().close();
  });
});
