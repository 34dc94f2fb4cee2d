// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi, type FakeSession } from '../../test-support/fake-api.js';
import { renderConsoleAt } from '../../test-support/render-console.js';
import { organizationWorld } from '../../test-support/organization-fixtures.js';
import { invitationToken } from '../../test-support/invitation-tokens.js';

afterEach(cleanup);

const renderAt = (path: string, session: FakeSession | null) => {
  const api = createFakeApi(organizationWorld(), session);
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null, helpLinks: {} } }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'ada', email: 'ada@x.test' },
  }));
  const accepted: string[] = [];
  api.on('POST', `/org/v1/invitation/${invitationToken()}`, () => {
    accepted.push('organization');
    return { status: 200, body: { organization: { id: 3, name: 'Acme' } } };
  });
  const { router } = renderConsoleAt(api.client, path);
  return { router, accepted, user: userEvent.setup() };
};

describe('invitation pages', { timeout: 30_000 }, () => {
  it('a guest is offered to log in (coming back) or sign up with the invitation', async () => {
    const path = `/organization/invitation/${invitationToken()}`;
    renderAt(path, null);
    expect(await screen.findByText('Acme')).toBeTruthy();
    const login = screen.getByRole('link', { name: 'Log in to accept' });
    expect(login.getAttribute('href')).toBe(`/login?redirect=${encodeURIComponent(path)}`);
    const signup = new URL(
      screen.getByRole('link', { name: 'Sign up to accept' }).getAttribute('href') ?? '',
      'http://console.test',
    );
    expect(signup.pathname).toBe('/signup');
    expect(signup.searchParams.get('invitation')).toBe(invitationToken());
    expect(signup.searchParams.get('email')).toBe('bob@example.com');
  });

  it('a signed-in user accepts and lands on the organization', async () => {
    const { router, accepted, user } = renderAt(
      `/organization/invitation/${invitationToken()}`,
      {},
    );
    await user.click(await screen.findByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByText('You joined Acme')).toBeTruthy();
    expect(accepted).toEqual(['organization']);
    await waitFor(() => expect(router.state.location.pathname).toBe('/orgs/3'));
    expect(await screen.findByRole('tab', { name: 'Members' })).toBeTruthy();
  });

  it('an expired invitation says so with a way back', async () => {
    renderAt(`/organization/invitation/${invitationToken({ exp: 1 })}`, {});
    expect(await screen.findByText(/This invitation has expired/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the console' })).toBeTruthy();
  });

  it('a malformed token or one of the other kind is not valid', async () => {
    renderAt(`/invitation/${invitationToken()}`, {});
    expect(await screen.findByText('This invitation link is not valid.')).toBeTruthy();
    cleanup();
    renderAt('/organization/invitation/not-a-token', {});
    expect(await screen.findByText('This invitation link is not valid.')).toBeTruthy();
  });
});
