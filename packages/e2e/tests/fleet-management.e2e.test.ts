import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFleetMember, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { applicationPage } from '../support/pages/application-page.js';
import { fleetsPage } from '../support/pages/fleets-page.js';

describe('managing a fleet', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
  });

  it('opens a fleet, renames it and deletes it', async () => {
    const owner = await registerUser('owner');
    const fleetId = await createFleet(owner, 'Orchard-North');
    const page = await newPage(browser);
    await logInAs(page, owner);
    await fleetsPage(page).card('Orchard-North').click();
    await page.waitForURL(`**/fleets/${fleetId}**`);
    const fleet = applicationPage(page);
    await fleet.heading('Orchard-North').waitFor();
    expect(await page.title()).toMatch(/Orchard-North \| Flotilla$/);
    await page.screenshot({ path: 'data/e2e-screens/fleet-summary.png', fullPage: true });

    await fleet.openSettings();
    await page.screenshot({ path: 'data/e2e-screens/fleet-settings.png', fullPage: true });
    await fleet.rename('Orchard-South');
    await fleet.heading('Orchard-South').waitFor();

    await fleet.delete('Orchard-South');
    await page.waitForURL('**/fleets');
    await fleetsPage(page).emptyState().waitFor();
    const remaining = await owner.client.pine.get({
      resource: 'application',
      options: { $select: ['id'], $filter: { id: fleetId } },
    });
    expect(remaining).toEqual([]);
    await page.context().close();
  });

  it('shows an observer the fleet but no way to change or delete it', async () => {
    const owner = await registerUser('admin');
    const observer = await registerUser('viewer');
    const fleetId = await createFleet(owner, 'Shared-Readonly');
    await addFleetMember(owner, fleetId, observer, 'observer');
    const page = await newPage(browser);
    await logInAs(page, observer);
    await fleetsPage(page).card('Shared-Readonly').waitFor();
    // A member with their own role leaves from the members page; settings are not theirs.
    await applicationPage(page).open(fleetId, 'members');
    await page.getByRole('heading', { name: 'Shared-Readonly', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Remove my access' }).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/fleet-members-observer.png', fullPage: true });
    expect(await page.getByRole('tab', { name: 'Settings' }).count()).toBe(0);
    await page.goto(`/fleets/${fleetId}/settings`);
    await page.waitForURL(/\/fleets$/);
    // The API keys need resin.api_key.read: an observer is sent home (the fleet list).
    await page.goto(`/fleets/${fleetId}/api-keys`);
    await page.waitForURL(/\/fleets$/);
    // A fleet that does not exist leads back to the fleet list too.
    await page.goto('/fleets/999999/settings');
    await page.waitForURL(/\/fleets$/);
    await fleetsPage(page).card('Shared-Readonly').waitFor();
    await page.context().close();
  });
});
