// @vitest-environment jsdom
import { freshAuthenticationRequiredMessage } from '@flotilla/shared/auth/reauthentication';
import { samlSignInMessages } from '@flotilla/shared/sso/saml-sign-in';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reauthConfirmedMessage } from '../../api/session/reauth-return-path.js';
import { createFakeApi, sessionToken } from '../../test-support/fake-api.js';
import type { FakeRow } from '../../test-support/fake-odata.js';
import { testUserId } from '../../test-support/fixtures.js';
import { ownUserRow, userProfileRow } from '../../test-support/profile-fixtures.js';
import { renderConsoleAt } from '../../test-support/render-console.js';

const left = vi.hoisted((): string[] => []);
vi.mock('../../ui/leave-console.js', () => ({
  leaveConsole: (href: string) => {
    left.push(href);
  },
}));

afterEach(cleanup);
beforeEach(() => {
  left.splice(0);
  window.sessionStorage.clear();
});

const firstLoad = { timeout: 15_000 };
const returnKey = 'flotilla.reauthentication.returnPath';

const renderAt = (
  path: string,
  data: { hasPassword: boolean; social?: FakeRow[]; saml?: FakeRow[] },
) => {
  const api = createFakeApi({
    application: [],
    application_type: [],
    organization: [],
    api_key: [],
    user_profile: [userProfileRow({ has_password_set: data.hasPassword })],
    user: [ownUserRow()],
    social_service_account: data.social ?? [],
    saml_account: data.saml ?? [],
  });
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null } }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: testUserId, username: 'ada', email: 'a@x.t' },
  }));
  api.on('POST', '/api-key/user/full', () => ({
    status: 401,
    text: freshAuthenticationRequiredMessage,
  }));
  return { api, ...renderConsoleAt(api.client, path) };
};

const googleLink = { id: 1, provider: 'google', belongs_to__user: { __id: testUserId } };

// Creating an API key after the window: the server asks for a fresh authentication.
const askForKey = async () => {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Create API key' }, firstLoad));
  const dialog = await screen.findByRole('dialog', { name: 'Create API key' });
  await user.type(within(dialog).getByLabelText('Name'), 'ci');
  await user.click(within(dialog).getByRole('button', { name: 'Create' }));
  return user;
};

describe('re-authentication without a password', { timeout: 30_000 }, () => {
  it('offers the linked Google account and leaves for it, keeping the page', async () => {
    const { api } = renderAt('/preferences/access-tokens', {
      hasPassword: false,
      social: [googleLink],
    });
    const started: string[] = [];
    api.on('POST', '/auth/google/reauth', (_body, url) => {
      started.push(url.pathname);
      return { status: 200, body: { url: 'https://google.test/authorize?state=s' } };
    });
    const user = await askForKey();
    const confirm = await screen.findByRole('dialog', { name: 'Confirm your identity' });
    expect(within(confirm).queryByLabelText('Password')).toBeNull();
    expect(within(confirm).queryByRole('button', { name: /GitHub/ })).toBeNull();
    await user.click(await within(confirm).findByRole('button', { name: 'Continue with Google' }));
    await waitFor(() => expect(left).toEqual(['https://google.test/authorize?state=s']));
    expect(started).toEqual(['/auth/google/reauth']);
    expect(window.sessionStorage.getItem(returnKey)).toBe('/preferences/access-tokens');
  });

  it('offers the identity provider to a SAML account (setting up two-factor)', async () => {
    const { api } = renderAt('/preferences/2fa', {
      hasPassword: false,
      saml: [{ id: 3, belongs_to__user: { __id: testUserId } }],
    });
    api.on('POST', '/auth/saml/reauth', () => ({
      status: 200,
      body: { url: 'https://idp.test/sso?SAMLRequest=x' },
    }));
    api.on('GET', '/auth/totp/setup', () => ({
      status: 401,
      text: freshAuthenticationRequiredMessage,
    }));
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Set up two-factor authentication' }, firstLoad),
    );
    const confirm = await screen.findByRole('dialog', { name: 'Confirm your identity' });
    await user.click(
      await within(confirm).findByRole('button', { name: 'Continue with your identity provider' }),
    );
    await waitFor(() => expect(left).toEqual(['https://idp.test/sso?SAMLRequest=x']));
    expect(window.sessionStorage.getItem(returnKey)).toBe('/preferences/2fa');
  });

  it('still asks an account with a password for it, with its linked accounts beside', async () => {
    renderAt('/preferences/access-tokens', { hasPassword: true, social: [googleLink] });
    await askForKey();
    const confirm = await screen.findByRole('dialog', { name: 'Confirm your password' });
    expect(within(confirm).getByLabelText('Password')).toBeTruthy();
    expect(
      await within(confirm).findByRole('button', { name: 'Continue with Google' }),
    ).toBeTruthy();
  });

  it('comes back from Google to the page it left, with the fresh session', async () => {
    window.sessionStorage.setItem(returnKey, '/preferences/access-tokens');
    const { api, router } = renderAt('/auth/google/callback?code=c1&state=s1', {
      hasPassword: false,
    });
    const fresh = sessionToken({ authTime: Date.now() + 5 });
    api.on('POST', '/auth/google/exchange', () => ({
      status: 200,
      body: { outcome: 'reauthenticated', token: fresh },
    }));
    await waitFor(
      () => expect(router.state.location.pathname).toBe('/preferences/access-tokens'),
      firstLoad,
    );
    expect(api.client.auth.getToken()).toBe(fresh);
    expect(await screen.findByText(reauthConfirmedMessage)).toBeTruthy();
  });

  it('spends the SAML code with the session and goes back; shows a refusal', async () => {
    window.sessionStorage.setItem(returnKey, '/preferences/access-tokens');
    const { api, router } = renderAt('/saml/callback/reauth?code=k1', { hasPassword: false });
    const fresh = sessionToken({ authTime: Date.now() + 5 });
    const bodies: unknown[] = [];
    api.on('POST', '/auth/saml/reauthenticate', (body) => {
      bodies.push(body);
      return { status: 200, text: fresh };
    });
    await waitFor(
      () => expect(router.state.location.pathname).toBe('/preferences/access-tokens'),
      firstLoad,
    );
    expect(bodies).toEqual([{ code: 'k1' }]);
    expect(api.client.auth.getToken()).toBe(fresh);
    cleanup();

    const refused = encodeURIComponent(samlSignInMessages.reauthNotLinked);
    renderAt(`/saml/callback/reauth?saml_error=${refused}`, { hasPassword: false });
    expect(await screen.findByText(samlSignInMessages.reauthNotLinked, {}, firstLoad)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back' }).getAttribute('href')).toBe('/');
  });
});
