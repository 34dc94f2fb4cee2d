// @vitest-environment jsdom
import { createFlotillaClient } from '@flotilla/sdk/create-client';
import { memoryTokenStorage } from '@flotilla/sdk/token-storage';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { ClientProvider } from '../../app/client.js';
import { type EmailVerification, RequireGuest, RequireSession } from './guards.js';
import { rememberLastPath } from './last-path.js';

const base64url = (value: object): string =>
  btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

// An unsigned token is enough here: the console only decodes its claims.
const token = (claims: Record<string, unknown>): string =>
  `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({
    id: 7,
    authTime: Date.now(),
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(Date.now() / 1000) + 3600,
    permissions: [],
    ...claims,
  })}.signature`;

const Where = () => {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
};

const verified: EmailVerification = { must_be_verified: true, is_verified: true };

const profileResponse = (row: EmailVerification): Response =>
  new Response(JSON.stringify({ d: [row] }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });

// The API as the guard sees it: GET /v7/user_profile(<id>) answers the given row (or, given a
// promise, once it settles); nothing else is expected.
const fakeFetch = (profile: EmailVerification | Promise<EmailVerification>) =>
  vi.fn(async (input: RequestInfo | URL): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith('/v7/user_profile(')) return new Response('Not found', { status: 404 });
    return profileResponse(await profile);
  });

const renderAt = (
  path: string,
  stored: string | null,
  fetch: ReturnType<typeof fakeFetch> = fakeFetch(verified),
) => {
  const client = createFlotillaClient({ storage: memoryTokenStorage(stored), fetch });
  const router = createMemoryRouter(
    [
      {
        path: '/login',
        element: (
          <RequireGuest>
            <Where />
          </RequireGuest>
        ),
      },
      { path: '/login/two-factor', element: <Where /> },
      { path: '/user/verify-email/pending', element: <Where /> },
      { path: '/', element: <Where /> },
      { path: '/devices/:uuid', element: <Where /> },
      {
        path: '/fleets',
        element: (
          <RequireSession>
            <Where />
          </RequireSession>
        ),
      },
      {
        path: '/fleets/:id',
        element: (
          <RequireSession>
            <Where />
          </RequireSession>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <ClientProvider client={client}>
      <QueryClientProvider
        client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      >
        <RouterProvider router={router} />
      </QueryClientProvider>
    </ClientProvider>,
  );
};

// Where the guards lead, once they have decided.
const whereAfter = async (
  path: string,
  stored: string | null,
  fetch?: ReturnType<typeof fakeFetch>,
): Promise<string | null> => {
  renderAt(path, stored, fetch);
  return (await screen.findByTestId('where')).textContent;
};

describe('route guards', () => {
  beforeEach(() => window.localStorage.clear());
  afterEach(cleanup);

  it('sends guests to /login, keeping where they wanted to go', async () => {
    expect(await whereAfter('/fleets/12?tab=x', null)).toBe(
      '/login?redirect=%2Ffleets%2F12%3Ftab%3Dx',
    );
  });

  it('sends a session with a pending second factor to /login/two-factor', async () => {
    const fetch = fakeFetch(verified);
    expect(await whereAfter('/fleets', token({ twoFactorRequired: true }), fetch)).toBe(
      '/login/two-factor',
    );
    // The profile is not asked for before the second factor.
    expect(fetch).not.toHaveBeenCalled();
  });

  it('lets a signed-in user through and remembers the path', async () => {
    expect(await whereAfter('/fleets/12', token({}))).toBe('/fleets/12');
    expect(window.localStorage.getItem('flotilla.lastPath.7')).toBe('/fleets/12');
  });

  it('sends signed-in users away from guest pages: redirect, else last path, else /', async () => {
    expect(await whereAfter('/login?redirect=%2Ffleets%2F3', token({}))).toBe('/fleets/3');
    cleanup();
    window.localStorage.clear();
    // An unsafe redirect is ignored.
    expect(await whereAfter('/login?redirect=%2F%2Fevil.example', token({}))).toBe('/');
    cleanup();
    rememberLastPath(7, '/devices/abc');
    expect(await whereAfter('/login', token({}))).toBe('/devices/abc');
    cleanup();
    // The fleet list is never restored: it is where / leads anyway.
    rememberLastPath(7, '/fleets');
    expect(await whereAfter('/login', token({}))).toBe('/');
  });

  it('sends a user whose e-mail must be verified and is not to the pending verification page', async () => {
    const fetch = fakeFetch({ must_be_verified: true, is_verified: false });
    expect(await whereAfter('/fleets/12', token({}), fetch)).toBe('/user/verify-email/pending');
    // The signed-in user's own profile row, only the two fields.
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String(fetch.mock.calls[0]?.[0])).toBe(
      '/v7/user_profile(7)?$select=must_be_verified,is_verified',
    );
  });

  it('lets verified users, and users who need no verification, through', async () => {
    expect(await whereAfter('/fleets/12', token({}), fakeFetch(verified))).toBe('/fleets/12');
    cleanup();
    expect(
      await whereAfter(
        '/fleets',
        token({}),
        fakeFetch({ must_be_verified: false, is_verified: false }),
      ),
    ).toBe('/fleets');
  });

  it('shows a loading indicator until the profile is loaded', async () => {
    let answer: (row: EmailVerification) => void = () => undefined;
    const profile = new Promise<EmailVerification>((resolve) => {
      answer = resolve;
    });
    renderAt('/fleets/12', token({}), fakeFetch(profile));
    expect(await screen.findByRole('status', { name: 'Loading your profile' })).toBeTruthy();
    expect(screen.queryByTestId('where')).toBeNull();
    answer({ must_be_verified: true, is_verified: false });
    expect((await screen.findByTestId('where')).textContent).toBe('/user/verify-email/pending');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows guest pages to guests', async () => {
    expect(await whereAfter('/login', null)).toBe('/login');
  });
});
