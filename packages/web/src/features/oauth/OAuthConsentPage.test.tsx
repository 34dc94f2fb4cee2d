// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi, type FakeSession } from '../../test-support/fake-api.js';
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
});

const redirect = 'https://grafana.example/callback?from=flotilla';
// As /v7 serves it to the caller: the expanded authorizations are the caller's own only.
const grafana = (authorizations: object[] = []) => ({
  id: 3,
  created_at: '2026-11-01T10:00:00.000Z',
  client_id: 'abc123',
  name: 'Grafana',
  description: 'Dashboards',
  redirect_uri: redirect,
  oauth_application_authorization: authorizations,
});

const renderAt = (
  path: string,
  session: FakeSession = {},
  application: ReturnType<typeof grafana> = grafana(),
) => {
  const api = createFakeApi({ application: [], oauth_application: [application] }, session);
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null, helpLinks: {} } }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'ada', email: 'ada@x.test' },
  }));
  const { router } = renderConsoleAt(api.client, path);
  return { api, router };
};

const firstLoad = { timeout: 15_000 };

describe('OAuthConsentPage', { timeout: 30_000 }, () => {
  it('shows the application and who you are; allow sends the code and state to the registered URI', async () => {
    const { api } = renderAt(
      `/login/oauth/abc123?state=s%201&code_challenge=${'c'.repeat(43)}&code_challenge_method=S256`,
    );
    const bodies: unknown[] = [];
    api.on('POST', '/oauth/authorize', (body) => {
      bodies.push(body);
      return { status: 200, body: { code: 'the-code', redirect_uri: redirect, state: 's 1' } };
    });
    expect(await screen.findByRole('heading', { name: 'Grafana' }, firstLoad)).toBeTruthy();
    expect(screen.getByText('Dashboards')).toBeTruthy();
    expect(await screen.findByText('ada')).toBeTruthy();
    expect(screen.getByText('https://grafana.example')).toBeTruthy();
    expect(screen.queryByText(/You have already authorized/)).toBeNull();
    // Read through /v7 by client id, with the caller's authorization expanded.
    expect(
      api.reads.some(
        (url) =>
          decodeURIComponent(url.pathname) === "/v7/oauth_application(client_id='abc123')" &&
          (url.searchParams.get('$expand') ?? '').startsWith('oauth_application_authorization'),
      ),
    ).toBe(true);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Allow' }));
    await waitFor(() =>
      expect(left).toEqual([
        'https://grafana.example/callback?from=flotilla&code=the-code&state=s+1',
      ]),
    );
    expect(bodies).toEqual([
      {
        client_id: 'abc123',
        response_type: 'code',
        state: 's 1',
        code_challenge: 'c'.repeat(43),
        code_challenge_method: 'S256',
      },
    ]);
  });

  it('says when the user already authorized the application, and lets them allow again', async () => {
    const { api } = renderAt(
      '/login/oauth/abc123?state=s',
      {},
      grafana([{ id: 9, created_at: '2026-11-02T10:00:00.000Z' }]),
    );
    api.on('POST', '/oauth/authorize', () => ({
      status: 200,
      body: { code: 'again', redirect_uri: redirect, state: 's' },
    }));
    expect(
      await screen.findByText(/You have already authorized Grafana/, undefined, firstLoad),
    ).toBeTruthy();
    expect(
      screen.getByRole('link', { name: 'Preferences → Access tokens' }).getAttribute('href'),
    ).toBe('/preferences/access-tokens');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Allow again' }));
    await waitFor(() =>
      expect(left).toEqual(['https://grafana.example/callback?from=flotilla&code=again&state=s']),
    );
  });

  it('deny goes back with error=access_denied, asking the server nothing', async () => {
    renderAt('/login/oauth/abc123?state=xyz');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Deny' }, firstLoad));
    expect(left).toEqual([
      'https://grafana.example/callback?from=flotilla&error=access_denied&state=xyz',
    ]);
  });

  it('refuses a redirect URI the application did not register', async () => {
    renderAt(`/login/oauth/abc123?redirect_uri=${encodeURIComponent('https://evil.example/')}`);
    expect(
      await screen.findByText(
        /asked to send you to an address it did not register/,
        undefined,
        firstLoad,
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Allow' })).toBeNull();
  });

  it('says so for an unknown client id', async () => {
    renderAt('/login/oauth/nope');
    expect(
      await screen.findByText(/There is no application with this client id/, undefined, firstLoad),
    ).toBeTruthy();
  });

  it('shows a failed read with a retry', async () => {
    const { api } = renderAt('/login/oauth/abc123');
    api.refuseNextRead('oauth_application', 'Database unavailable', { status: 503 });
    expect(await screen.findByText(/Database unavailable/, undefined, firstLoad)).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Grafana' })).toBeTruthy();
  });

  it('shows the server refusal and stays', async () => {
    const { api } = renderAt('/login/oauth/abc123');
    api.on('POST', '/oauth/authorize', () => ({ status: 404, text: 'Unknown OAuth application' }));
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Allow' }, firstLoad));
    expect(await screen.findByText(/Unknown OAuth application/)).toBeTruthy();
    expect(left).toEqual([]);
  });

  it('offers no Allow to an administrator logged in as the user', async () => {
    renderAt('/login/oauth/abc123', { actualUser: 1 });
    const allow = await screen.findByRole('button', { name: 'Allow' }, firstLoad);
    expect(allow.hasAttribute('disabled')).toBe(true);
  });
});
