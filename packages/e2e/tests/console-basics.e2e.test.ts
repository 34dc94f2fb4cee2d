import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, uniqueEmail } from '../support/browser.js';
import { loginPage, signupPage } from '../support/pages/auth-pages.js';
import { fleetsPage } from '../support/pages/fleets-page.js';
import { shell } from '../support/pages/shell.js';

describe('the console: sign-up, sign-in, fleets', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
  });

  it('signs a new user up, shows the empty fleet list, signs out and in again', async () => {
    const page = await newPage(browser);
    const email = uniqueEmail('ada');
    const signup = signupPage(page);
    await signup.open();
    await signup.signUp('not-an-address', 'short');
    await expect
      .poll(() => signup.errorText('Enter a valid e-mail address').isVisible())
      .toBe(true);
    await expect
      .poll(() => signup.errorText('Password must be at least 8 characters').isVisible())
      .toBe(true);
    await signup.signUp(email, 'a-good-password');
    // A new account completes its profile first, then goes on to where it was going.
    await signup.completeProfile({ firstName: 'Ada', lastName: 'Lovelace', company: 'Engines' });
    const fleets = fleetsPage(page);
    await fleets.heading().waitFor();
    expect(new URL(page.url()).pathname).toBe('/fleets');
    await fleets.emptyState().waitFor();
    expect(await page.title()).toBe('Fleets | Flotilla');
    await page.screenshot({ path: 'data/e2e-screens/fleets-empty.png' });

    await shell(page).signOut();
    const login = loginPage(page);
    await login.logIn(email, 'wrong-password');
    await expect.poll(async () => login.alert().textContent()).toMatch(/Invalid login credentials/);
    await login.logIn(email, 'a-good-password');
    await fleets.heading().waitFor();
    await page.context().close();
  });

  it('creates a fleet from the dialog and shows its card', async () => {
    const page = await newPage(browser);
    await signupPage(page).open();
    await signupPage(page).signUp(uniqueEmail('grace'), 'a-good-password');
    await signupPage(page).completeProfile();
    const fleets = fleetsPage(page);
    await fleets.emptyState().waitFor();
    await page
      .getByRole('button', { name: /Create fleet/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'Create fleet' });
    // The suggested name is a valid two-word name.
    expect(await dialog.getByLabel('Fleet name').inputValue()).toMatch(/^[a-z]+-[a-z]+$/);
    await dialog.getByLabel('Fleet name').fill('ab');
    await dialog.getByText('at least 4 characters').waitFor();
    await page.screenshot({ path: 'data/e2e-screens/create-dialog.png' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await fleets.createFleet('Greenhouse-Sensors');
    await page.waitForURL(/\/fleets\/\d+/);
    await fleets.open();
    await fleets.card('Greenhouse-Sensors').waitFor();
    await page.screenshot({ path: 'data/e2e-screens/fleets-list.png' });
    await page.context().close();
  });

  it('shows the cookie notice in the page, under every dialog, with no analytics to offer', async () => {
    const page = await newPage(browser, { cookieBanner: 'unanswered' });
    await signupPage(page).open();
    await signupPage(page).signUp(uniqueEmail('hedy'), 'a-good-password');
    await signupPage(page).completeProfile();
    const fleets = fleetsPage(page);
    await fleets.emptyState().waitFor();
    const banner = shell(page).cookieBanner();
    await banner.waitFor();
    expect(await banner.textContent()).not.toMatch(/analytics/i);
    await page
      .getByRole('button', { name: /Create fleet/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'Create fleet' });
    await dialog.getByLabel('Fleet name').fill('');
    await dialog.getByText('name required').waitFor();
    // What is on top at the centre of each of the dialog's buttons is the dialog itself.
    for (const name of ['Cancel', 'Create new fleet']) {
      const box = await dialog.getByRole('button', { name }).boundingBox();
      if (!box) throw new Error(`no box for ${name}`);
      const inDialog = await page.evaluate(
        ({ x, y }) => document.elementFromPoint(x, y)?.closest('[role="dialog"]') !== null,
        { x: box.x + box.width / 2, y: box.y + box.height / 2 },
      );
      expect(inDialog, name).toBe(true);
    }
    await page.screenshot({ path: 'data/e2e-screens/cookie-notice-dialog.png' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await banner.getByRole('button', { name: 'OK' }).click();
    await banner.waitFor({ state: 'detached' });
    await page.reload();
    await fleets.emptyState().waitFor();
    expect(await banner.count()).toBe(0);
    await page.context().close();
  });

  it('notices the browser going offline at once and checks again when it is back', async () => {
    const page = await newPage(browser);
    await signupPage(page).open();
    await signupPage(page).signUp(uniqueEmail('katherine'), 'a-good-password');
    await signupPage(page).completeProfile();
    await fleetsPage(page).emptyState().waitFor();
    await shell(page).status('All systems operational').waitFor();
    await page.context().setOffline(true);
    await shell(page).offlineBanner().waitFor();
    await shell(page).status('Connection problems').waitFor();
    await page.screenshot({ path: 'data/e2e-screens/browser-offline.png' });
    await page.context().setOffline(false);
    await shell(page).offlineBanner().waitFor({ state: 'detached' });
    await shell(page).status('All systems operational').waitFor();
    await page.context().close();
  });

  it('shows the not-found page for unknown routes, with a way home', async () => {
    const page = await newPage(browser);
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.title()).toBe('Page not found | Flotilla');
    await page.getByRole('link', { name: 'Go home' }).click();
    // Home for a guest is the login screen.
    await page.waitForURL('**/login**');
    await page.context().close();
  });

  it('shows the offline banner while the API is unreachable and clears it on recovery', async () => {
    const page = await newPage(browser);
    await signupPage(page).open();
    await signupPage(page).signUp(uniqueEmail('linus'), 'a-good-password');
    await signupPage(page).completeProfile();
    await fleetsPage(page).heading().waitFor();
    // Cut the API off (requests fail at the network level); the list's next 8 s poll notices.
    await page.route('**/v7/**', (route) => route.abort('connectionrefused'));
    await page.route('**/ping', (route) => route.abort('connectionrefused'));
    await shell(page).offlineBanner().waitFor({ timeout: 30_000 });
    await page.screenshot({ path: 'data/e2e-screens/offline.png' });
    await page.unroute('**/v7/**');
    await page.unroute('**/ping');
    await shell(page).retry();
    await shell(page).offlineBanner().waitFor({ state: 'detached', timeout: 30_000 });
    await page.context().close();
  });
});
