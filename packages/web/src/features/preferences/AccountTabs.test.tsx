// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientProvider } from '../../api/client.js';
import { consoleRouterAt } from '../../test-support/render-console.js';
import { createFakeApi, sessionToken } from '../../test-support/fake-api.js';
import { ToastProvider } from '../../ui/toasts.js';
import { ownUserRow, userProfileRow } from '../../test-support/profile-fixtures.js';

afterEach(cleanup);

const renderAt = (path: string, profile = userProfileRow(), newsletterEnabled = true) => {
  const api = createFakeApi({
    application: [],
    application_type: [],
    organization: [],
    user_profile: [profile],
    user: [ownUserRow()],
    social_service_account: [],
  });
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null, newsletterEnabled } }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'ada', email: 'ada@x.test' },
  }));
  const router = consoleRouterAt(path);
  render(
    <ClientProvider client={api.client}>
      <ToastProvider>
        <QueryClientProvider
          client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
        >
          <RouterProvider router={router} />
        </QueryClientProvider>
      </ToastProvider>
    </ClientProvider>,
  );
  return { api, router };
};

describe('Preferences → Account details', { timeout: 20_000 }, () => {
  it('is the default tab; the new password must be confirmed, then the current one is sent', async () => {
    const { api } = renderAt('/preferences');
    const sent: unknown[] = [];
    const renewed = sessionToken({ authTime: Date.now() + 1 });
    api.on('PATCH', '/user/password', (body) => {
      sent.push(body);
      return { status: 200, text: renewed };
    });
    const user = userEvent.setup();
    const change = await screen.findByRole(
      'button',
      { name: 'Change password' },
      { timeout: 10_000 },
    );
    expect(await screen.findByText('ada@x.test')).toBeTruthy();
    // The username and the account's creation date, from user_profile.
    expect(screen.getByText('ada', { selector: 'strong' })).toBeTruthy();
    expect(
      screen.getByText(
        new RegExp(`account created ${new Date('2025-01-02T03:04:05.000Z').toLocaleDateString()}`),
      ),
    ).toBeTruthy();
    await user.type(screen.getByLabelText('Current password'), 'old-password');
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'new-password-2');
    await user.click(change);
    expect(await screen.findByText("Passwords don't match")).toBeTruthy();
    expect(sent).toEqual([]);

    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'new-password-1');
    await user.click(change);
    expect(await screen.findByText(/Your other sessions have been logged out/)).toBeTruthy();
    expect(sent).toEqual([{ currentPassword: 'old-password', password: 'new-password-1' }]);
    expect(api.client.auth.getToken()).toBe(renewed);
  });

  it('an account without a password sets one without the current password', async () => {
    const { api } = renderAt('/preferences/details', userProfileRow({ has_password_set: false }));
    const sent: unknown[] = [];
    api.on('PATCH', '/user/password', (body) => {
      sent.push(body);
      return { status: 200, text: sessionToken() };
    });
    const user = userEvent.setup();
    const set = await screen.findByRole('button', { name: 'Set password' }, { timeout: 10_000 });
    expect(screen.queryByLabelText('Current password')).toBeNull();
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.type(screen.getByLabelText('Confirm new password'), 'short');
    await user.click(set);
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy();
    await user.type(screen.getByLabelText('New password'), '-enough');
    await user.type(screen.getByLabelText('Confirm new password'), '-enough');
    await user.click(set);
    await waitFor(() => expect(sent).toEqual([{ password: 'short-enough' }]));
  });
});

describe('Preferences → Account details: other sessions', { timeout: 20_000 }, () => {
  it('logs out the other sessions and keeps this one with the new token', async () => {
    const { api } = renderAt('/preferences');
    const renewed = sessionToken({ authTime: Date.now() + 2 });
    let calls = 0;
    api.on('POST', '/logout-others', () => {
      calls += 1;
      return calls === 1
        ? { status: 500, text: 'Internal server error' }
        : { status: 200, text: renewed };
    });
    const user = userEvent.setup();
    const button = await screen.findByRole(
      'button',
      { name: 'Log out other sessions' },
      { timeout: 10_000 },
    );
    await user.click(button);
    expect(await screen.findByText(/Could not log out your other sessions/)).toBeTruthy();
    await user.click(button);
    expect(await screen.findByText('Your other sessions have been logged out.')).toBeTruthy();
    expect(api.client.auth.getToken()).toBe(renewed);
  });
});

describe('Preferences → Profile', { timeout: 20_000 }, () => {
  it('offers no newsletter where the installation sends none', async () => {
    renderAt('/preferences/profile', userProfileRow(), false);
    expect(await screen.findByLabelText(/Company/, {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: 'Receive the newsletter' })).toBeNull();
  });

  it('requires the names and company, and sends the newsletter choice negated', async () => {
    const { api } = renderAt('/preferences/profile');
    const sent: unknown[] = [];
    api.on('PATCH', '/user/profile', (body) => {
      sent.push(body);
      return { status: 200, body };
    });
    const user = userEvent.setup();
    const company = await screen.findByLabelText(/Company/, {}, { timeout: 10_000 });
    expect(company).toHaveProperty('value', 'Analytical Engines');
    await user.clear(company);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Company is required')).toBeTruthy();
    expect(sent).toEqual([]);

    await user.type(company, 'Difference Engines');
    await user.click(screen.getByRole('checkbox', { name: 'Receive the newsletter' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Profile saved.')).toBeTruthy();
    expect(sent).toEqual([
      {
        first_name: 'Ada',
        last_name: 'Lovelace',
        company: 'Difference Engines',
        account_type: 'professional',
        has_disabled_newsletter: true,
      },
    ]);
  });
});
