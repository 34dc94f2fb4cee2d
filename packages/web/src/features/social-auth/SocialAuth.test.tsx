// @vitest-environment jsdom
import { socialAuthMessages } from '@flotilla/shared/social-auth/social-providers';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi, type FakeSession, sessionToken } from '../../test-support/fake-api.js';
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

// The error texts arrive as the SDK words them ("Request error: …").
const textContaining = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

const renderAt = (
  path: string,
  session: FakeSession | null,
  providers: string[] = ['github', 'google'],
  links: FakeRow[] = [],
) => {
  const api = createFakeApi(
    {
      application: [],
      application_type: [],
      organization: [],
      user_profile: [userProfileRow()],
      user: [ownUserRow()],
      social_service_account: links,
    },
    session,
  );
  api.on('GET', '/config', () => ({
    status: 200,
    body: { deployment: null, supportedSocialProviders: providers },
  }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'ada', email: 'ada@x.test' },
  }));
  const { router } = renderConsoleAt(api.client, path);
  return { api, router };
};

describe('social sign-in', { timeout: 30_000 }, () => {
  it('shows a login button for each configured provider only, keeping the return path', async () => {
    renderAt('/login?redirect=%2Ffleets%2F3', null, ['google']);
    const google = await screen.findByRole('link', { name: 'Log in with Google' }, firstLoad);
    expect(google.getAttribute('href')).toBe('/auth/google');
    expect(screen.queryByRole('link', { name: 'Log in with GitHub' })).toBeNull();
    // The click leaves the console (jsdom does not navigate); the path waits for the way back.
    google.addEventListener('click', (event) => event.preventDefault());
    await userEvent.setup().click(google);
    expect(window.sessionStorage.getItem('flotilla.socialSignIn.returnPath')).toBe('/fleets/3');
  });

  it('shows no social buttons when no provider is configured', async () => {
    renderAt('/login', null, []);
    expect(await screen.findByRole('button', { name: 'Log in' }, firstLoad)).toBeTruthy();
    expect(screen.queryByText('or')).toBeNull();
    expect(screen.queryByRole('link', { name: /Log in with/ })).toBeNull();
  });

  it('says on the login page why a sign-in could not start', async () => {
    renderAt('/login?social_error=Google%20could%20not%20be%20reached', null, ['google']);
    expect(await screen.findByText('Google could not be reached', {}, firstLoad)).toBeTruthy();
  });

  it('hands the answer over once, signs in and goes where the user was going', async () => {
    window.sessionStorage.setItem('flotilla.socialSignIn.returnPath', '/preferences/profile');
    const { api, router } = renderAt('/auth/google/callback?code=c1&state=s1', null);
    const bodies: unknown[] = [];
    api.on('POST', '/auth/google/exchange', (body) => {
      bodies.push(body);
      return { status: 200, body: { outcome: 'signed-in', token: sessionToken() } };
    });
    await waitFor(
      () => expect(router.state.location.pathname).toBe('/preferences/profile'),
      firstLoad,
    );
    expect(bodies).toEqual([{ query: 'code=c1&state=s1' }]);
  });

  it("shows the server's refusal with a way back to the login", async () => {
    const { api } = renderAt('/auth/github/callback?code=c1&state=forged', null);
    api.on('POST', '/auth/github/exchange', () => ({
      status: 400,
      text: socialAuthMessages.stateMismatch,
    }));
    expect(
      await screen.findByText(textContaining(socialAuthMessages.stateMismatch), {}, firstLoad),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/login');
  });

  it('asks the existing account for its password before linking', async () => {
    const { api, router } = renderAt('/auth/google/callback?code=c1&state=s1', null);
    api.on('POST', '/auth/google/exchange', () => ({
      status: 200,
      body: {
        outcome: 'link-required',
        linkToken: 'pending',
        email: 'ada@x.test',
        hasPassword: true,
      },
    }));
    const confirms: unknown[] = [];
    api.on('POST', '/auth/google/link-confirm', (body) => {
      confirms.push(body);
      return confirms.length === 1
        ? { status: 400, text: 'Invalid login credentials' }
        : { status: 200, body: { outcome: 'signed-in', token: sessionToken() } };
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/Password/, {}, firstLoad), 'wrong-one');
    await user.click(screen.getByRole('button', { name: 'Link and log in' }));
    expect(await screen.findByText(textContaining('Invalid login credentials'))).toBeTruthy();
    await user.clear(screen.getByLabelText(/Password/));
    await user.type(screen.getByLabelText(/Password/), 'ada-password');
    await user.click(screen.getByRole('button', { name: 'Link and log in' }));
    await waitFor(() => expect(router.state.location.pathname).not.toMatch(/^\/(auth|login)/));
    expect(confirms).toEqual([
      { linkToken: 'pending', password: 'wrong-one' },
      { linkToken: 'pending', password: 'ada-password' },
    ]);
  });
});

describe('Preferences → Profile → Social accounts', { timeout: 30_000 }, () => {
  const githubLink = {
    id: 5,
    provider: 'github',
    display_name: 'ada-codes',
    belongs_to__user: { __id: testUserId },
  };

  it('lists the linked accounts and offers to link the other configured provider', async () => {
    const { api } = renderAt('/preferences/profile', {}, ['github', 'google'], [githubLink]);
    const table = await screen.findByRole('table', { name: 'Social accounts' }, firstLoad);
    expect(within(table).getByText('ada-codes')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Link GitHub' })).toBeNull();
    api.on('POST', '/auth/google/link', () => ({
      status: 200,
      body: { url: 'https://accounts.example/auth?state=x' },
    }));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Link Google' }));
    await waitFor(() => expect(left).toEqual(['https://accounts.example/auth?state=x']));
  });

  it("unlinks, and shows the server's refusal of the last way in", async () => {
    const { api } = renderAt('/preferences/profile', {}, ['github'], [githubLink]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Unlink' }, firstLoad));
    api.refuseNext('DELETE', 'social_service_account', 5, socialAuthMessages.lastWayIn, 409);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Unlink' }));
    expect(await screen.findByText(textContaining(socialAuthMessages.lastWayIn))).toBeTruthy();
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Unlink' }));
    await waitFor(() =>
      expect(api.writes).toContainEqual(
        expect.objectContaining({ method: 'DELETE', resource: 'social_service_account', id: 5 }),
      ),
    );
    expect(await screen.findByText('No linked accounts')).toBeTruthy();
  });

  it('is not shown where no provider is configured and nothing is linked', async () => {
    renderAt('/preferences/profile', {}, [], []);
    expect(await screen.findByRole('button', { name: 'Save' }, firstLoad)).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Loading the social accounts')).toBeNull());
    expect(screen.queryByRole('table', { name: 'Social accounts' })).toBeNull();
  });
});
