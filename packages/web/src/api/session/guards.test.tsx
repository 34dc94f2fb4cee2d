// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeApi, type FakeSession } from '../../test-support/fake-api.js';
import { renderConsoleAt } from '../../test-support/render-console.js';
import { answerDevicePageFeeds } from '../../test-support/device-page-feeds.js';
import { deviceDetail } from '../../test-support/device-fixtures.js';
import { rememberLastPath } from './last-path.js';

// The guards as they sit in the console's own route table (app/router.tsx), against the fake API.
const renderAt = (path: string, session: FakeSession | null) => {
  const api = createFakeApi({ device: [deviceDetail()] }, session);
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null } }));
  // The shell's user menu.
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'ada', email: 'ada@example.com' },
  }));
  // A signed-in user may land on the device page (the remembered last path).
  answerDevicePageFeeds(api, deviceDetail().uuid);
  // A fresh table per router: the router marks a route's lazy parts as loaded in the table.
  const { router } = renderConsoleAt(api.client, path);
  return router;
};

// What each place shows once rendered.
const landmarks: Record<
  'login' | 'two-factor' | 'shell',
  { role: 'button' | 'navigation'; name: string }
> = {
  login: { role: 'button', name: 'Log in' },
  'two-factor': { role: 'button', name: 'Verify' },
  shell: { role: 'navigation', name: 'Main navigation' },
};

// Where the console settles, with what it shows there: the login form or the signed-in shell.
const settlesAt = async (
  router: ReturnType<typeof renderAt>,
  expected: string,
  shows: 'login' | 'two-factor' | 'shell',
): Promise<void> => {
  // The router first loads the lazy modules of the matched routes, which takes a while.
  await waitFor(
    () => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(expected),
    { timeout: 10_000 },
  );
  const { role, name } = landmarks[shows];
  expect(await screen.findByRole(role, { name }, { timeout: 10_000 })).toBeTruthy();
};

describe('route guards in the route table', { timeout: 20_000 }, () => {
  beforeEach(() => window.localStorage.clear());
  afterEach(cleanup);

  it('sends guests to /login, keeping where they wanted to go', async () => {
    await settlesAt(
      renderAt('/fleets/12?tab=x', null),
      '/login?redirect=%2Ffleets%2F12%3Ftab%3Dx',
      'login',
    );
  });

  it('sends a session whose second factor is pending to /login/two-factor, from anywhere', async () => {
    await settlesAt(
      renderAt('/fleets', { twoFactorRequired: true }),
      '/login/two-factor?redirect=%2Ffleets',
      'two-factor',
    );
    expect(window.localStorage.getItem('flotilla.lastPath.7')).toBeNull();
    cleanup();
    await settlesAt(
      renderAt('/login?redirect=%2Fblocks', { twoFactorRequired: true }),
      '/login/two-factor?redirect=%2Fblocks',
      'two-factor',
    );
  });

  it('keeps guests and passed sessions off the two-factor page', async () => {
    await settlesAt(renderAt('/login/two-factor', null), '/login', 'login');
    cleanup();
    await settlesAt(
      renderAt('/login/two-factor?redirect=%2Fblocks', { twoFactorRequired: false }),
      '/blocks',
      'shell',
    );
  });

  it('lets a signed-in user through and remembers the path', async () => {
    await settlesAt(renderAt('/blocks', {}), '/blocks', 'shell');
    expect(window.localStorage.getItem('flotilla.lastPath.7')).toBe('/blocks');
  });

  it('sends signed-in users away from guest pages: redirect, else last path, else /', async () => {
    await settlesAt(renderAt('/login?redirect=%2Fblocks', {}), '/blocks', 'shell');
    cleanup();
    window.localStorage.clear();
    // An unsafe redirect is ignored: / leads to the fleet list.
    await settlesAt(renderAt('/login?redirect=%2F%2Fevil.example', {}), '/fleets', 'shell');
    cleanup();
    const device = `/devices/${deviceDetail().uuid}`;
    rememberLastPath(7, device);
    await settlesAt(renderAt('/signup', {}), device, 'shell');
  });

  it('shows guest pages to guests', async () => {
    await settlesAt(renderAt('/login', null), '/login', 'login');
  });
});
