import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { socialAuthMessages } from '@flotilla/shared/social-auth/social-providers';
import { defaultConsoleDir } from '@flotilla/server/features/console/register-console';
import { loadConfig } from '@flotilla/server/infra/config/config';
import { startServer } from '@flotilla/server/start-server';
import { freePort } from '@flotilla/server/test-support/free-port';
import {
  type GithubApiFake,
  startGithubApiFake,
} from '@flotilla/server/test-support/github-api-fake';
import {
  type OidcTestProvider,
  startOidcTestProvider,
} from '@flotilla/server/test-support/oidc-test-provider';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage } from '../support/browser.js';
import { socialAccounts, socialLogin } from '../support/pages/social-pages.js';

// Signing up with Google from the login page's button and coming back where one was
// going, then linking GitHub from Preferences → Profile and unlinking it, against a real OpenID
// Connect provider on this machine (oidc-provider, for Google and for GitHub's OAuth part, with
// the strict fake of GitHub's /user API). The shared e2e server has no provider configured, so
// this test runs a server of its own with both.
describe('social sign-in in the browser', () => {
  let browser: Browser;
  let google: OidcTestProvider;
  let githubOAuth: OidcTestProvider;
  let githubApi: GithubApiFake;
  let server: { url: string; stop(): Promise<void> };
  let dataDir: string;
  let consoleUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    consoleUrl = `http://localhost:${port}`;
    google = await startOidcTestProvider([
      {
        clientId: 'google-client',
        clientSecret: 'google-secret',
        redirectUri: `${consoleUrl}/auth/google/callback`,
      },
    ]);
    githubOAuth = await startOidcTestProvider([
      {
        clientId: 'github-client',
        clientSecret: 'github-secret',
        redirectUri: `${consoleUrl}/auth/github/callback`,
      },
    ]);
    githubApi = await startGithubApiFake(githubOAuth.provider);
    dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-e2e-social-'));
    const config = loadConfig({
      FLOTILLA_CONSOLE_DIR: defaultConsoleDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      FLOTILLA_DATA_DIR: dataDir,
      FLOTILLA_PUBLIC_URL: consoleUrl,
      FLOTILLA_LOG_LEVEL: 'warn',
      FLOTILLA_DEMO: 'off',
      FLOTILLA_MAP_TILE_URL: '',
      FLOTILLA_GOOGLE_CLIENT_ID: 'google-client',
      FLOTILLA_GOOGLE_CLIENT_SECRET: 'google-secret',
      FLOTILLA_GOOGLE_ISSUER: google.issuer,
      FLOTILLA_GITHUB_CLIENT_ID: 'github-client',
      FLOTILLA_GITHUB_CLIENT_SECRET: 'github-secret',
      FLOTILLA_GITHUB_AUTHORIZE_URL: `${githubOAuth.issuer}/auth`,
      FLOTILLA_GITHUB_TOKEN_URL: `${githubOAuth.issuer}/token`,
      FLOTILLA_GITHUB_API_URL: githubApi.url,
    });
    server = await startServer(config, () => undefined);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await githubApi?.close();
    await google?.close();
    await githubOAuth?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('signs up with Google, links GitHub in Preferences, unlinks it, and keeps the last way in', async () => {
    google.addAccount('g-sam', { email: 'sam@e2e.flotilla.test', emailVerified: true });
    google.signInAs('g-sam');
    githubOAuth.addAccount('gh-sam', {});
    githubOAuth.signInAs('gh-sam');
    githubApi.setUser('gh-sam', {
      id: 9001,
      login: 'sam-codes',
      emails: [{ email: 'sam@e2e.flotilla.test', primary: true, verified: true }],
    });
    const page = await newPage(browser);
    await page.goto(`${consoleUrl}/login?redirect=${encodeURIComponent('/preferences/profile')}`);
    await socialLogin(page).button('GitHub').waitFor();
    await page.screenshot({ path: 'data/e2e-screens/social-login.png', fullPage: true });
    await socialLogin(page).logInWith('Google');

    // Back from the provider, signed up and where the user was going.
    await page.waitForURL('**/preferences/profile');
    const accounts = socialAccounts(page);
    await accounts.row('sam@e2e.flotilla.test').waitFor();

    await accounts.link('GitHub');
    await page.waitForURL('**/preferences/profile');
    await accounts.row('sam-codes').waitFor();
    await page.screenshot({ path: 'data/e2e-screens/social-accounts.png', fullPage: true });

    await accounts.unlink('sam-codes');
    await accounts.row('sam-codes').waitFor({ state: 'detached' });

    await accounts.unlink('sam@e2e.flotilla.test');
    await accounts.dialog().getByText(socialAuthMessages.lastWayIn, { exact: false }).waitFor();
    // (The refused confirm button lost the focus while it was disabled: the dialog's own Cancel
    // closes it, as a user would.)
    await accounts.dialog().getByRole('button', { name: 'Cancel' }).click();
    await accounts.dialog().waitFor({ state: 'detached' });
    expect(await accounts.row('sam@e2e.flotilla.test').count()).toBe(1);
    expect(githubApi.unexpected).toEqual([]);
    await page.context().close();
  });
});
