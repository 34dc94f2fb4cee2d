import { totpCodeAt } from '@flotilla/server/features/two-factor/totp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { loginPage } from '../support/pages/auth-pages.js';
import { twoFactorLogin, twoFactorPreferences } from '../support/pages/preferences-pages.js';
import { shell } from '../support/pages/shell.js';

// A user enables two-factor authentication from the preferences by reading the key and
// computing the code, then logs in with an authenticator code and with a recovery code.
describe('two-factor authentication', () => {
  let browser: Browser;
  let user: ApiUser;

  // Each code works once: the login uses the code of the next 30 s step, which the server
  // accepts already (one step either way), so the test never waits for the clock.
  const codeOfNextStep = (secret: string): string =>
    totpCodeAt(secret, new Date(Date.now() + 30_000));

  const logInToTwoFactorStep = async (page: Page): Promise<void> => {
    await loginPage(page).open();
    await loginPage(page).logIn(user.email, user.password);
    await page.waitForURL(/\/login\/two-factor/);
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    user = await registerUser('twofactor');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('enables two-factor, then logs in with a code and with a recovery code', async () => {
    const page = await newPage(browser);
    await logInAs(page, user);
    const preferences = twoFactorPreferences(page);
    await preferences.open();
    const secret = await preferences.startSetup();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.screenshot({ path: 'data/e2e-screens/two-factor-setup.png', fullPage: true });
    const codes = await preferences.enable(totpCodeAt(secret, new Date()));
    expect(codes).toHaveLength(10);
    await page.screenshot({ path: 'data/e2e-screens/two-factor-codes.png', fullPage: true });
    await preferences.savedCodes();
    await preferences.enabledNotice().waitFor();

    await shell(page).signOut();
    await logInToTwoFactorStep(page);
    await page.screenshot({ path: 'data/e2e-screens/two-factor-login.png', fullPage: true });
    await twoFactorLogin(page).typeCode(codeOfNextStep(secret));
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    expect(new URL(page.url()).pathname).not.toMatch(/^\/login/);

    await shell(page).signOut();
    await logInToTwoFactorStep(page);
    await twoFactorLogin(page).useRecoveryCode(codes[0] ?? '');
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    await page.context().close();
  });
});
