import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { projectTarball } from '../support/compose-project.js';
import { releasePages } from '../support/pages/release-pages.js';
import { createRelease } from '../support/releases.js';

// A fleet's releases in the console: the list, a release's page, pinning the fleet to
// an older release from its summary, the delete rule, and a release made from an uploaded project.
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

  it('edits version, tags and notes, and an invalidated release is disabled in the picker', async () => {
    const editFleet = await createFleet(owner, 'Edit-Garden');
    const first = await createRelease(owner, editFleet, ['main']);
    const second = await createRelease(owner, editFleet, ['main']);
    const page = await newPage(browser);
    await logInAs(page, owner);
    const releases = releasePages(page);
    await page.goto(`/fleets/${editFleet}/releases/${second.id}`);
    const summary = releases.summary();
    await summary.getByLabel('Tag name').fill('site');
    await summary.getByLabel('Tag value').fill('north');
    await summary.getByRole('button', { name: 'Add tag' }).click();
    await summary.getByText('site: north').waitFor();
    await page.getByLabel('Release notes').fill('Field trial');
    await page.getByText('Saved').waitFor();
    await releases.openSettings();
    await page.getByLabel('Release version').fill('2.0.0-rc1');
    await page.getByText(/three numbers such as 1.2.3/).waitFor();
    await page.getByLabel('Release version').fill('2.0.0');
    await page.getByRole('button', { name: 'Save version' }).click();
    await page.getByRole('heading', { name: 'Release 2.0.0' }).waitFor();
    const saved = await owner.client.pine.get({
      resource: 'release',
      id: second.id,
      options: { $select: ['semver', 'note'] },
    });
    expect(saved).toEqual({ semver: '2.0.0', note: 'Field trial' });

    await page.goto(`/fleets/${editFleet}/releases/${first.id}/settings`);
    await page.getByRole('button', { name: 'Invalidate' }).click();
    // Exact: "Invalidate" contains "validate", so a loose match is the button just clicked and
    // the page would move on before the write reached the server.
    await page.getByRole('button', { name: 'Validate', exact: true }).waitFor();
    await page.goto(`/fleets/${editFleet}`);
    await page.getByRole('combobox', { name: 'Default release' }).click();
    const option = page.getByRole('option', { name: new RegExp(first.commit.slice(0, 7)) });
    expect(await option.getAttribute('aria-disabled')).toBe('true');
    await page.screenshot({ path: 'data/e2e-screens/release-picker.png', fullPage: true });
    await page.context().close();
  });

  it('creates a release from an uploaded compose project, which a tracking fleet then runs', async () => {
    const trackingFleet = await createFleet(owner, 'Upload-Garden');
    const page = await newPage(browser);
    await logInAs(page, owner);
    const releases = releasePages(page);
    await releases.openList(trackingFleet);
    const instructions = page.getByRole('region', { name: 'Add a release' });
    await instructions.waitFor();
    // The git route names this server's remote for the fleet.
    const gitRoute = instructions.getByRole('region', { name: 'With git' });
    expect(await gitRoute.textContent()).toMatch(/git remote add flotilla http:\/\/[^ ]+\/git\//);
    await page.screenshot({
      path: 'data/e2e-screens/add-release-instructions.png',
      fullPage: true,
    });
    await page.getByRole('button', { name: 'Create release' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create release' });
    await dialog.getByLabel('Project file').setInputFiles({
      name: 'project.tar.gz',
      mimeType: 'application/gzip',
      buffer: await projectTarball('services:\n  web:\n    image: nginx:1.27\n'),
    });
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.getByText('The release was created.').waitFor();
    expect(await dialog.getByLabel('Build log').textContent()).toContain(
      '[web] Using image nginx:1.27',
    );
    await page.screenshot({ path: 'data/e2e-screens/release-created.png', fullPage: true });
    await dialog.getByRole('link', { name: 'Open release' }).click();
    await releases.summary().waitFor();
    const releaseId = Number(new URL(page.url()).pathname.split('/').pop());
    const fleet = await owner.client.pine.get({
      resource: 'application',
      id: trackingFleet,
      options: { $select: ['should_be_running__release'] },
    });
    expect(fleet?.should_be_running__release).toEqual({ __id: releaseId });
    await page.context().close();
  });
});
