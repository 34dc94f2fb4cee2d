// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClientProvider } from '../../api/client.js';
import { consoleRouterAt } from '../../test-support/render-console.js';
import { createFakeApi, sessionToken } from '../../test-support/fake-api.js';
import { ToastProvider } from '../../ui/toasts.js';
import { ownUserRow, userProfileRow } from '../../test-support/profile-fixtures.js';
import { passwordOverLimitMessage } from '../../api/session/password-limit.js';

beforeEach(() => window.localStorage.clear());
afterEach(cleanup);

const renderLogin = () => {
  const api = createFakeApi(
    {
      application: [],
      application_type: [],
      organization: [],
      user_profile: [userProfileRow()],
      user: [ownUserRow()],
    },
    null,
  );
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null } }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'ada', email: 'ada@x.test' },
  }));
  api.on('POST', '/login_', () => ({ status: 200, text: sessionToken() }));
  const router = consoleRouterAt('/login');
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

const logIn = async (password: string): Promise<void> => {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/E-mail/, {}, { timeout: 10_000 }), 'ada@x.test');
  await user.click(screen.getByLabelText(/Password/));
  await user.paste(password);
  await user.click(screen.getByRole('button', { name: 'Log in' }));
};

describe('a login password over 64 characters', { timeout: 30_000 }, () => {
  it('asks for a password change until one is saved', async () => {
    const { api, router } = renderLogin();
    const long = 'x'.repeat(65);
    await logIn(long);
    expect(await screen.findByText(passwordOverLimitMessage, {}, { timeout: 10_000 })).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('link', { name: 'Change password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/preferences/details'));
    // Still asked on the page that changes it, without a link to itself.
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Change password' })).toBeNull());
    expect(screen.getByText(passwordOverLimitMessage)).toBeTruthy();

    api.on('PATCH', '/user/password', () => ({ status: 200, text: sessionToken() }));
    await user.click(screen.getByLabelText('Current password'));
    await user.paste(long);
    await user.type(screen.getByLabelText('New password'), 'a-shorter-password');
    await user.type(screen.getByLabelText('Confirm new password'), 'a-shorter-password');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await screen.findByText(/Password changed/);
    expect(screen.queryByText(passwordOverLimitMessage)).toBeNull();
  });

  it('is not asked after a login with a password within the limit', async () => {
    const { router } = renderLogin();
    await logIn('x'.repeat(64));
    await waitFor(() => expect(router.state.location.pathname).toBe('/fleets'), {
      timeout: 10_000,
    });
    await screen.findByRole('heading', { name: 'Fleets' }, { timeout: 10_000 });
    expect(screen.queryByText(passwordOverLimitMessage)).toBeNull();
  });
});
