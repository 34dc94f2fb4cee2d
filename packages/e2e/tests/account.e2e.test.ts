import { generateKeyPairSync } from 'node:crypto';
import type { Browser } from 'playwright-core';
import sshpk from 'sshpk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, logInAs, registerUser } from '../support/api-setup.js';
import { baseUrl, launchBrowser, newPage } from '../support/browser.js';
import { accessTokensPreferences, sshKeysPreferences } from '../support/pages/preferences-pages.js';

// A user adds an SSH key and sees its fingerprint, and creates an API key that works
// from the command line (a plain HTTP client here).
describe('account preferences', () => {
  let browser: Browser;
  let user: ApiUser;

  beforeAll(async () => {
    browser = await launchBrowser();
    user = await registerUser('account');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('adds an SSH key and shows its md5 fingerprint', async () => {
    const pem = generateKeyPairSync('ed25519')
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    const key = sshpk.parseKey(pem, 'pem');
    const publicKey = `${key.toString('ssh').split(' ').slice(0, 2).join(' ')} ada@laptop`;
    const page = await newPage(browser);
    await logInAs(page, user);
    const sshKeys = sshKeysPreferences(page);
    await sshKeys.open();
    await sshKeys.add('laptop', publicKey);
    await sshKeys.row('laptop').getByText(key.fingerprint('md5').toString('hex')).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/ssh-keys.png', fullPage: true });
    await page.context().close();
  });

  it('creates an API key that authenticates an HTTP client as the user', async () => {
    const page = await newPage(browser);
    await logInAs(page, user);
    const tokens = accessTokensPreferences(page);
    await tokens.open();
    const apiKey = await tokens.create('ci');
    await tokens.row('ci').waitFor();
    await page.screenshot({ path: 'data/e2e-screens/access-tokens.png', fullPage: true });
    const response = await fetch(`${baseUrl()}/actor/v1/whoami`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ actorType: 'user', email: user.email });
    await page.context().close();
  });

  it('keeps the experimental header colour and navigation stripes across a reload', async () => {
    const page = await newPage(browser);
    await logInAs(page, user);
    await page.goto('/preferences/experimental');
    await page.getByLabel('Header colour').click();
    await page.getByRole('option', { name: 'Teal' }).click();
    await page.getByLabel('Show navigation stripes').check();
    const header = page.getByRole('banner');
    const background = () =>
      header.evaluate((element) => getComputedStyle(element).backgroundColor);
    await expect.poll(background).toBe('rgb(0, 105, 92)');
    await page.reload();
    await header.waitFor();
    await expect.poll(background).toBe('rgb(0, 105, 92)');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    expect(await nav.getAttribute('data-stripes')).toBe('on');
    await page.screenshot({ path: 'data/e2e-screens/experimental.png' });
    await page.context().close();
  });
});
