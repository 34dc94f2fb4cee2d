// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientProvider } from '../../api/client.js';
import { consoleRouterAt } from '../../test-support/render-console.js';
import { createFakeApi, sessionToken } from '../../test-support/fake-api.js';
import { ToastProvider } from '../../ui/toasts.js';
import { deletionErrorText } from './delete-account-steps.js';
import { userProfileRow } from '../../test-support/profile-fixtures.js';

afterEach(cleanup);

const firstLoad = { timeout: 15_000 };

const renderPreferences = (organizations: { id: number; name: string }[]) => {
  const api = createFakeApi({
    application: [],
    application_type: [],
    organization: [],
    user_profile: [userProfileRow()],
  });
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null } }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'ada', email: 'ada@x.test' },
  }));
  api.on('GET', '/user/v1/delete-account', () => ({ status: 200, body: { organizations } }));
  const router = consoleRouterAt('/preferences');
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

const openDialog = async () => {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Delete account…' }, firstLoad));
  const dialog = await screen.findByRole('dialog', { name: 'Delete account' });
  return { user, dialog };
};

const stepStatuses = (dialog: HTMLElement): string[] =>
  within(within(dialog).getByRole('list', { name: 'Deletion steps' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent ?? '');

describe('Preferences → Account details: deleting the account', { timeout: 30_000 }, () => {
  it('names the organizations that go, checks the password first, then deletes and logs out', async () => {
    const { api, router } = renderPreferences([{ id: 3, name: 'Acme' }]);
    const sent: string[] = [];
    api.on('POST', '/user/v1/refresh-token', (body) => {
      sent.push(`refresh ${JSON.stringify(body)}`);
      return { status: 200, text: sessionToken() };
    });
    api.on('POST', '/user/v1/delete-account', (body) => {
      sent.push(`delete ${JSON.stringify(body)}`);
      return { status: 200, body: { deletedOrganizations: ['Acme'] } };
    });
    const { user, dialog } = await openDialog();
    expect(await within(dialog).findByText(/fleets and devices: Acme\./)).toBeTruthy();
    const confirm = within(dialog).getByRole('button', { name: 'Delete account' });
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await user.type(within(dialog).getByLabelText('Password'), 'the-password');
    await user.click(confirm);
    expect(await within(dialog).findByText(/Your account has been deleted/)).toBeTruthy();
    expect(sent).toEqual([
      'refresh {"password":"the-password"}',
      'delete {"password":"the-password"}',
    ]);
    expect(stepStatuses(dialog).every((text) => text.endsWith('done'))).toBe(true);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(api.client.auth.getToken()).toBeNull();
  });

  it('stops at a wrong password, deleting nothing', async () => {
    const { api } = renderPreferences([]);
    api.on('POST', '/user/v1/refresh-token', () => ({ status: 401, text: 'Invalid password' }));
    const { user, dialog } = await openDialog();
    expect(await within(dialog).findByText(/You administer no organization alone/)).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Password'), 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    expect(await within(dialog).findByText(/Invalid password/)).toBeTruthy();
    expect(stepStatuses(dialog)).toEqual([
      'Verify your passwordfailed',
      'Cancel subscriptionspending',
      'Delete the organizations you administer alonepending',
      'Delete your accountpending',
    ]);
  });

  it('asks to contact support when a deletion step fails, unless the error says so', () => {
    expect(deletionErrorText('Request error: boom')).toBe(
      'Request error: boom If it keeps failing, contact support.',
    );
    expect(deletionErrorText('Ask sales about your custom plan')).toBe(
      'Ask sales about your custom plan',
    );
  });
});
