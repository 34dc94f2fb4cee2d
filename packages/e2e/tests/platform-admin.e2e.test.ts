import { createServer, type Server } from 'node:http';
import { cliLoginPath } from '@flotilla/shared/auth/cli-login-target';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ApiUser, registerUser } from '../support/api-setup.js';
import { baseUrl, launchBrowser, newPage } from '../support/browser.js';

// The platform administrator's area (login-as and back) and `balena login --web`.
describe('platform admin and command-line login', () => {
  let browser: Browser;
  let member: ApiUser;

  beforeAll(async () => {
    browser = await launchBrowser();
    member = await registerUser('adminee');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('an administrator (red header) logs in as a user and comes back', async () => {
    const page = await newPage(browser);
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(inject('adminEmail'));
    await page.getByLabel('Password').fill(inject('adminPassword'));
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('heading', { name: 'Fleets', level: 1 }).waitFor();
    // Red by default for administrators (web ui/local-preferences.ts).
    expect(
      await page
        .locator('header')
        .first()
        .evaluate((header) => getComputedStyle(header).backgroundColor),
    ).toBe('rgb(198, 40, 40)');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Admin', exact: true }).click();
    await page.getByRole('textbox', { name: 'Search users' }).fill(member.email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('cell', { name: member.email }).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/admin-users.png', fullPage: true });
    await page.getByRole('button', { name: /^Log in as / }).click();
    await page.getByText(/You are logged in as .* by a platform administrator/).waitFor();
    await page.getByRole('heading', { name: 'Fleets', level: 1 }).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/admin-login-as.png', fullPage: true });
    await page.getByRole('button', { name: 'Back to my account' }).click();
    await page.getByRole('table', { name: 'Users' }).waitFor();
    expect(await page.getByText(/You are logged in as/).count()).toBe(0);
    await page.context().close();
  });

  it('balena login --web: a guest logs in, authorizes, and the CLI gets a working token', async () => {
    // balena-cli 25's receiving server: POST /auth, urlencoded `token` (see the contract test).
    const received: string[] = [];
    const cli: Server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const type = request.headers['content-type'] ?? '';
        const token =
          request.method === 'POST' &&
          request.url === '/auth' &&
          type.startsWith('application/x-www-form-urlencoded')
            ? new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('token')
            : null;
        if (token) received.push(token.trim());
        response
          .writeHead(token ? 200 : 404, { 'content-type': 'text/html' })
          .end(token ? '<h1>CLI authorized</h1>' : 'Not found');
      });
    });
    await new Promise<void>((resolve) => cli.listen(0, '127.0.0.1', resolve));
    const address = cli.address();
    if (address === null || typeof address === 'string') throw new Error('no address');
    try {
      const page = await newPage(browser);
      await page.goto(cliLoginPath(`http://127.0.0.1:${address.port}/auth`));
      await page.getByLabel('E-mail').fill(member.email);
      await page.getByLabel('Password').fill(member.password);
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await page.getByRole('heading', { name: 'Authorize the command-line tool' }).waitFor();
      await page.screenshot({ path: 'data/e2e-screens/cli-login.png', fullPage: true });
      await page.getByRole('button', { name: 'Authorize' }).click();
      await page.getByRole('heading', { name: 'CLI authorized' }).waitFor();
      expect(received).toHaveLength(1);
      const whoami = await fetch(`${baseUrl()}/actor/v1/whoami`, {
        headers: { authorization: `Bearer ${received[0] ?? ''}` },
      });
      expect(await whoami.json()).toMatchObject({ actorType: 'user', email: member.email });
      await page.context().close();
    } finally {
      await new Promise<void>((resolve) => cli.close(() => resolve()));
    }
  });

  it('OAuth: an administrator registers an application, a user allows it, and its code becomes a token once', async () => {
    const codes: URLSearchParams[] = [];
    const site: Server = createServer((request, response) => {
      // The browser also asks for /favicon.ico: only the callback counts.
      const url = new URL(request.url ?? '/', 'http://site.test');
      if (url.pathname === '/callback') codes.push(url.searchParams);
      response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Back at the site</h1>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const address = site.address();
    if (address === null || typeof address === 'string') throw new Error('no address');
    const redirectUri = `http://127.0.0.1:${address.port}/callback`;
    try {
      const page = await newPage(browser);
      await page.goto('/login');
      await page.getByLabel('E-mail').fill(inject('adminEmail'));
      await page.getByLabel('Password').fill(inject('adminPassword'));
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await page.getByRole('heading', { name: 'Fleets', level: 1 }).waitFor();
      await page.goto('/admin/oauth');
      await page.getByRole('textbox', { name: 'Name' }).fill('Site');
      await page.getByRole('textbox', { name: 'Redirect URI' }).fill(redirectUri);
      await page.getByRole('button', { name: 'Register' }).click();
      const clientId =
        (await page
          .getByRole('table', { name: 'OAuth applications' })
          .locator('code')
          .first()
          .textContent()) ?? '';
      expect(clientId).toMatch(/^[0-9a-f]{32}$/);
      await page.context().close();

      const userPage = await newPage(browser);
      await userPage.goto(`/login/oauth/${clientId}?state=abc`);
      await userPage.getByLabel('E-mail').fill(member.email);
      await userPage.getByLabel('Password').fill(member.password);
      await userPage.getByRole('button', { name: 'Log in', exact: true }).click();
      await userPage.getByRole('heading', { name: 'Site' }).waitFor();
      await userPage.screenshot({ path: 'data/e2e-screens/oauth-consent.png', fullPage: true });
      await userPage.getByRole('button', { name: 'Allow' }).click();
      await userPage.getByRole('heading', { name: 'Back at the site' }).waitFor();
      expect(codes).toHaveLength(1);
      const query = codes[0];
      expect(query?.get('state')).toBe('abc');
      const form = {
        grant_type: 'authorization_code',
        code: query?.get('code') ?? '',
        client_id: clientId,
        redirect_uri: redirectUri,
      };
      const exchange = () =>
        fetch(`${baseUrl()}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(form).toString(),
        });
      const first = await exchange();
      expect(first.status).toBe(200);
      const { access_token: accessToken } = (await first.json()) as { access_token: string };
      const whoami = await fetch(`${baseUrl()}/actor/v1/whoami`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect(await whoami.json()).toMatchObject({ email: member.email });
      expect((await exchange()).status).toBe(400);
      // The authorization is kept: the consent page says so, and Preferences lists and revokes it.
      await userPage.goto(`/login/oauth/${clientId}?state=again`);
      await userPage.getByText('You have already authorized Site').waitFor();
      await userPage.getByRole('button', { name: 'Allow again' }).waitFor();
      await userPage.goto('/preferences/access-tokens');
      const authorized = userPage.getByRole('table', { name: 'Authorized applications' });
      await authorized.getByRole('cell', { name: 'Site', exact: true }).waitFor();
      await userPage.screenshot({
        path: 'data/e2e-screens/authorized-applications.png',
        fullPage: true,
      });
      await authorized.getByRole('button', { name: 'Revoke Site' }).click();
      await userPage
        .getByRole('dialog', { name: 'Revoke Site?' })
        .getByRole('button', { name: 'Revoke' })
        .click();
      await userPage.getByText('You have not authorized any applications').waitFor();
      // Revoking ended the application's token too.
      const revoked = await fetch(`${baseUrl()}/actor/v1/whoami`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect(revoked.status).toBe(401);
      await userPage.goto(`/login/oauth/${clientId}?state=third`);
      await userPage.getByRole('button', { name: 'Allow', exact: true }).waitFor();
      expect(await userPage.getByText('You have already authorized Site').count()).toBe(0);
      await userPage.context().close();
    } finally {
      await new Promise<void>((resolve) => site.close(() => resolve()));
    }
  });
});
