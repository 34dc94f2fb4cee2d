import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, registerUser } from '../support/api-setup.js';
import { baseUrl, launchBrowser, newPage, uniqueEmail } from '../support/browser.js';
import { mailTo } from '../support/mailbox.js';

// A user resets a forgotten password from the mail, changes their e-mail address and
// verifies it, and deletes their account. Mail is read as the test SMTP server received it
// (support/mail-catcher.ts, support/mailbox.ts).
describe('account mail', () => {
  let browser: Browser;
  let user: ApiUser;

  // The path of the link mailed to `to` whose subject matches, as the SMTP server received it
  // (the outbox keeps no link of a message SMTP delivered).
  const mailedPath = async (to: string, subject: RegExp): Promise<string> => {
    const url = new URL((await mailTo(to, subject)).links[0] ?? '');
    return `${url.pathname}${url.search}`;
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    user = await registerUser('account-mail');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('resets a forgotten password from the mailed link', async () => {
    const page = await newPage(browser);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Check your e-mail').waitFor();

    await page.goto(await mailedPath(user.email, /Reset your Flotilla password/));
    await page.getByLabel(/^New password/).fill('a-brand-new-password');
    await page.getByLabel('Confirm new password').fill('a-brand-new-password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('Your password has been changed').waitFor();
    await page.screenshot({ path: 'data/e2e-screens/password-reset.png', fullPage: true });

    await page.getByRole('link', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Log in', exact: true }).waitFor();
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill('a-brand-new-password');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('heading', { name: 'Fleets', level: 1 }).waitFor();
    user = { ...user, password: 'a-brand-new-password' };
    await page.context().close();
  });

  it('changes the e-mail address and verifies it from the mailed link', async () => {
    const page = await newPage(browser);
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('heading', { name: 'Fleets', level: 1 }).waitFor();

    const moved = uniqueEmail('moved');
    await page.goto('/preferences');
    await page.getByLabel('New e-mail').fill(moved);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Change e-mail' }).click();
    // Verification is not required on this server: the address changes at once, unverified.
    await page.getByText(`Your e-mail address is now ${moved}`).waitFor();
    await page.getByText('Not verified', { exact: true }).waitFor();

    await page.goto(await mailedPath(moved, /Verify your e-mail address/));
    await page.getByText('E-mail address verified').waitFor();
    await page.getByRole('link', { name: 'Continue' }).click();
    await page.goto('/preferences');
    await page.getByText('Verified', { exact: true }).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/email-change.png', fullPage: true });
    await page.context().close();
  });
});

describe('account deletion', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('deletes the account with its own organization, then the login is refused', async () => {
    const user = await registerUser('deleted');
    const page = await newPage(browser);
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('heading', { name: 'Fleets', level: 1 }).waitFor();

    await page.goto('/preferences');
    await page.getByRole('button', { name: 'Delete account…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete account' });
    // Sign-up made a personal organization that the user administers alone: it goes too.
    await dialog.getByText(/fleets and devices: /).waitFor();
    await dialog.getByLabel('Password').fill(user.password);
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await dialog.getByText('Your account has been deleted').waitFor();
    await page.screenshot({ path: 'data/e2e-screens/account-deleted.png', fullPage: true });
    await page.getByRole('button', { name: 'Log in', exact: true }).waitFor();

    const login = await fetch(`${baseUrl()}/login_`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: user.email, password: user.password }),
    });
    expect(login.status).toBe(401);
    await page.context().close();
  });
});
