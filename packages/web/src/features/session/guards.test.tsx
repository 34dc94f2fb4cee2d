// @vitest-environment jsdom
import { createFlotillaClient } from '@flotilla/sdk/create-client';
import { memoryTokenStorage } from '@flotilla/sdk/token-storage';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { ClientProvider } from '../../app/client.js';
import { RequireGuest, RequireSession } from './guards.js';
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

const renderAt = (path: string, stored: string | null) => {
  const client = createFlotillaClient({ storage: memoryTokenStorage(stored) });
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
      <RouterProvider router={router} />
    </ClientProvider>,
  );
  return screen.getByTestId('where').textContent;
};

describe('route guards', () => {
  beforeEach(() => window.localStorage.clear());
  afterEach(cleanup);

  it('sends guests to /login, keeping where they wanted to go', () => {
    expect(renderAt('/fleets/12?tab=x', null)).toBe('/login?redirect=%2Ffleets%2F12%3Ftab%3Dx');
  });

  it('sends a session with a pending second factor to /login/two-factor', () => {
    expect(renderAt('/fleets', token({ twoFactorRequired: true }))).toBe('/login/two-factor');
  });

  it('lets a signed-in user through and remembers the path', () => {
    expect(renderAt('/fleets/12', token({}))).toBe('/fleets/12');
    expect(window.localStorage.getItem('flotilla.lastPath.7')).toBe('/fleets/12');
  });

  it('sends signed-in users away from guest pages: redirect, else last path, else /', () => {
    expect(renderAt('/login?redirect=%2Ffleets%2F3', token({}))).toBe('/fleets/3');
    cleanup();
    window.localStorage.clear();
    // An unsafe redirect is ignored.
    expect(renderAt('/login?redirect=%2F%2Fevil.example', token({}))).toBe('/');
    cleanup();
    rememberLastPath(7, '/devices/abc');
    expect(renderAt('/login', token({}))).toBe('/devices/abc');
    cleanup();
    // The fleet list is never restored: it is where / leads anyway.
    rememberLastPath(7, '/fleets');
    expect(renderAt('/login', token({}))).toBe('/');
  });

  it('shows guest pages to guests', () => {
    expect(renderAt('/login', null)).toBe('/login');
  });
});
