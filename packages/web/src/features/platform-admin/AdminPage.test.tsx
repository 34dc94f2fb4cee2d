// @vitest-environment jsdom
import type { AdminUser } from '@flotilla/shared/users/admin-users';
import { adminReturnTokenKey } from '@flotilla/shared/users/admin-users';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeApi, type FakeSession, sessionToken } from '../../test-support/fake-api.js';
import { renderConsoleAt } from '../../test-support/render-console.js';

afterEach(cleanup);
beforeEach(() => window.sessionStorage.clear());

const adminSession: FakeSession = { userId: 7, permissions: ['admin.home'] };

const user = (id: number, username: string): AdminUser => ({
  id,
  username,
  email: `${username}@example.com`,
  createdAt: '2026-11-01T10:00:00.000Z',
  platformRoles: id === 7 ? ['balena_admin'] : [],
});

const everyone = [user(7, 'root'), user(8, 'ann'), user(9, 'bob')];

const renderAt = (path: string, session: FakeSession) => {
  const api = createFakeApi({ application: [] }, session);
  const userQueries: URLSearchParams[] = [];
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null, helpLinks: {} } }));
  api.on('GET', '/actor/v1/whoami', () => {
    const current = api.client.auth.session();
    const name = current?.userId === 9 ? 'bob' : 'root';
    return {
      status: 200,
      body: {
        id: 70,
        actorType: 'user',
        actorTypeId: current?.userId,
        username: name,
        email: null,
      },
    };
  });
  api.on('GET', '/admin/v1/users', (_body, url) => {
    userQueries.push(url.searchParams);
    const search = url.searchParams.get('search') ?? '';
    const matches = everyone.filter((row) => row.username.includes(search));
    return { status: 200, body: { total: search === '' ? 60 : matches.length, users: matches } };
  });
  const { router } = renderConsoleAt(api.client, path);
  return { api, router, userQueries };
};

describe('AdminPage', { timeout: 30_000 }, () => {
  it('lists users, searches and pages on the server', async () => {
    const { userQueries } = renderAt('/admin', adminSession);
    const table = await screen.findByRole('table', { name: 'Users' }, { timeout: 15_000 });
    expect(within(table).getByText('ann@example.com')).toBeTruthy();
    // No "Log in as" for oneself.
    expect(screen.queryByRole('button', { name: 'Log in as root' })).toBeNull();
    const actor = userEvent.setup();
    await actor.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(userQueries.at(-1)?.get('offset')).toBe('25'));
    await actor.type(screen.getByRole('textbox', { name: 'Search users' }), 'zed');
    await actor.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No user matches "zed".')).toBeTruthy();
    expect(userQueries.at(-1)?.get('search')).toBe('zed');
    expect(userQueries.at(-1)?.get('offset')).toBe('0');
  });

  // The search box's maxLength cut a pasted text short without a word.
  it('says a search is too long instead of cutting it, and does not send it', async () => {
    const { userQueries } = renderAt('/admin', adminSession);
    await screen.findByRole('table', { name: 'Users' }, { timeout: 15_000 });
    const sent = userQueries.length;
    const actor = userEvent.setup();
    await actor.click(screen.getByRole('textbox', { name: 'Search users' }));
    await actor.paste('x'.repeat(101));
    expect(screen.getByText('The search must be at most 100 characters (it has 101)')).toBeTruthy();
    await actor.click(screen.getByRole('button', { name: 'Search' }));
    expect(userQueries).toHaveLength(sent);
  });

  it('shows the error with a retry', async () => {
    const { api } = renderAt('/admin', adminSession);
    let fail = true;
    api.on('GET', '/admin/v1/users', () =>
      fail
        ? { status: 500, text: 'The database is unavailable' }
        : { status: 200, body: { total: 1, users: [user(8, 'ann')] } },
    );
    expect(
      await screen.findByText(/The database is unavailable/, undefined, { timeout: 15_000 }),
    ).toBeTruthy();
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('ann@example.com')).toBeTruthy();
  });

  it('sends a user without admin.home away, asking the server nothing', async () => {
    const { router } = renderAt('/admin', {});
    await waitFor(() => expect(router.state.location.pathname).toBe('/fleets'), {
      timeout: 15_000,
    });
  });

  it('logs in as a user, shows who acts on every screen, and goes back to the admin session', async () => {
    const { api, router } = renderAt('/admin', adminSession);
    const own = api.client.auth.getToken();
    const bobToken = sessionToken({ id: 9, actualUser: 7 });
    const bodies: unknown[] = [];
    api.on('PATCH', '/login_', (body) => {
      bodies.push(body);
      return { status: 200, text: bobToken };
    });
    const actor = userEvent.setup();
    await actor.click(
      await screen.findByRole('button', { name: 'Log in as bob' }, { timeout: 15_000 }),
    );
    expect(
      // The shell reads bob's profile before it shows a screen again.
      await screen.findByText(/You are logged in as bob by a platform administrator/, undefined, {
        timeout: 15_000,
      }),
    ).toBeTruthy();
    expect(bodies).toEqual([{ username: 'bob' }]);
    expect(api.client.auth.getToken()).toBe(bobToken);
    expect(window.sessionStorage.getItem(adminReturnTokenKey)).toBe(own);
    await actor.click(screen.getByRole('button', { name: 'Back to my account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(api.client.auth.getToken()).toBe(own);
    expect(window.sessionStorage.getItem(adminReturnTokenKey)).toBeNull();
    expect(screen.queryByText(/You are logged in as/)).toBeNull();
  });

  it('signs out when the way back is gone', async () => {
    const { api, router } = renderAt('/fleets', { userId: 9, actualUser: 7 });
    await userEvent
      .setup()
      .click(
        await screen.findByRole('button', { name: 'Back to my account' }, { timeout: 15_000 }),
      );
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(api.client.auth.getToken()).toBeNull();
  });
});
