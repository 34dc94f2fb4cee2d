// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientProvider } from '../../api/client.js';
import { consoleRouterAt } from '../../test-support/render-console.js';
import { freshAuthenticationRequiredMessage } from '@flotilla/shared/auth/reauthentication';
import { samlApiKeyRefusal } from '@flotilla/shared/auth/saml-accounts';
import { createFakeApi, sessionToken } from '../../test-support/fake-api.js';
import { ToastProvider } from '../../ui/toasts.js';
import { apiKeyMessages } from '../api-keys/api-key-rules.js';

afterEach(cleanup);

const userActor = 70;
const key = (id: number, name: string | null, actor = userActor) => ({
  id,
  name,
  description: name === null ? null : `${name} key`,
  created_at: '2026-11-01T10:00:00Z',
  expiry_date: null,
  is_of__actor: { __id: actor },
});

const userId = 7;
// A SAML account of the user (or of a fellow member, whose rows are readable too: their badge).
const samlAccount = (id: number, owner: number) => ({ id, belongs_to__user: { __id: owner } });

const renderTab = (
  samlAccounts = [samlAccount(1, 8)],
  prepare: (api: ReturnType<typeof createFakeApi>) => void = () => undefined,
) => {
  const api = createFakeApi({
    application: [],
    application_type: [],
    organization: [],
    // A named key of the user, an unnamed one (a session-style key) and another actor's key.
    api_key: [key(1, 'deploy'), key(2, null), key(3, 'other', 71)],
    saml_account: samlAccounts,
  });
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null } }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: {
      id: userActor,
      actorType: 'user',
      actorTypeId: userId,
      username: 'ada',
      email: 'a@x.test',
    },
  }));
  prepare(api);
  const router = consoleRouterAt('/preferences/access-tokens');
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
  return api;
};

describe('Preferences → Access tokens', { timeout: 20_000 }, () => {
  it("lists the user's named keys only", async () => {
    renderTab();
    const table = await screen.findByRole('table', { name: 'API keys' }, { timeout: 10_000 });
    const names = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[0]?.textContent);
    expect(names).toEqual(['deploy']);
  });

  it('creates a key with an expiry preset and shows it once', async () => {
    const api = renderTab();
    const sent: unknown[] = [];
    api.on('POST', '/api-key/user/full', (body) => {
      sent.push(body);
      return { status: 200, body: 'the-new-secret-key' };
    });
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Create API key' }, { timeout: 10_000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Create API key' });
    await user.type(within(dialog).getByLabelText('Name'), 'ci');
    await user.click(within(dialog).getByLabelText('Expires after'));
    await user.click(await screen.findByRole('option', { name: 'Never' }));
    expect(within(dialog).getByText(apiKeyMessages.never)).toBeTruthy();
    await user.click(within(dialog).getByLabelText('Expires after'));
    await user.click(await screen.findByRole('option', { name: '7 days' }));
    const before = Date.now();
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    const shown = await screen.findByRole('dialog', { name: 'API key created' });
    expect(within(shown).getByText('the-new-secret-key')).toBeTruthy();
    expect(within(shown).getByRole('button', { name: 'Download' })).toBeTruthy();
    expect(sent).toHaveLength(1);
    const [body] = sent;
    expect(body).toMatchObject({ name: 'ci', description: null });
    const expiry =
      typeof body === 'object' && body !== null && 'expiryDate' in body ? body.expiryDate : null;
    const days = (new Date(String(expiry)).getTime() - before) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText('the-new-secret-key')).toBeNull());
  });

  it('asks for the password when the re-authentication window is over, then creates the key', async () => {
    const api = renderTab();
    const created: unknown[] = [];
    api.on('POST', '/api-key/user/full', (body) => {
      created.push(body);
      return created.length === 1
        ? { status: 401, text: freshAuthenticationRequiredMessage }
        : { status: 200, body: 'the-new-secret-key' };
    });
    const renewed = sessionToken({ authTime: Date.now() + 1 });
    const confirmations: unknown[] = [];
    api.on('POST', '/user/v1/refresh-token', (body) => {
      confirmations.push(body);
      return confirmations.length === 1
        ? { status: 401, text: 'Invalid password' }
        : { status: 200, text: renewed };
    });
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Create API key' }, { timeout: 10_000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Create API key' });
    await user.type(within(dialog).getByLabelText('Name'), 'ci');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    const confirm = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await user.type(within(confirm).getByLabelText('Password'), 'wrong');
    await user.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    expect(await within(confirm).findByText('Invalid password')).toBeTruthy();
    const password = within(confirm).getByLabelText('Password');
    await user.clear(password);
    await user.type(password, 'the-password');
    await user.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    const shown = await screen.findByRole('dialog', { name: 'API key created' });
    expect(within(shown).getByText('the-new-secret-key')).toBeTruthy();
    expect(confirmations).toEqual([{ password: 'wrong' }, { password: 'the-password' }]);
    expect(created).toHaveLength(2);
    expect(api.client.auth.getToken()).toBe(renewed);
  });

  it('says the key was not created when the password is not confirmed', async () => {
    const api = renderTab();
    api.on('POST', '/api-key/user/full', () => ({
      status: 401,
      text: freshAuthenticationRequiredMessage,
    }));
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Create API key' }, { timeout: 10_000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Create API key' });
    await user.type(within(dialog).getByLabelText('Name'), 'ci');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    const confirm = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(
      await within(dialog).findByText(`Request error: ${freshAuthenticationRequiredMessage}`),
    ).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'API key created' })).toBeNull();
  });

  it('revokes a key after confirmation', async () => {
    const api = renderTab();
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Revoke deploy' }, { timeout: 10_000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Revoke deploy?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('No API keys yet')).toBeTruthy();
    expect(api.writes).toEqual([{ method: 'DELETE', resource: 'api_key', id: 1, body: undefined }]);
  });

  it('lets a user whose fellow member signs in with SAML create keys', async () => {
    renderTab();
    const create = await screen.findByRole(
      'button',
      { name: 'Create API key' },
      { timeout: 10_000 },
    );
    expect(create.hasAttribute('disabled')).toBe(false);
    expect(screen.queryByText(`${samlApiKeyRefusal}.`)).toBeNull();
  });

  it('disables creating keys, and says why, for a user who signs in with SAML', async () => {
    const api = renderTab([samlAccount(1, 8), samlAccount(2, userId)]);
    expect(await screen.findByText(`${samlApiKeyRefusal}.`, {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create API key' }).hasAttribute('disabled')).toBe(
      true,
    );
    // The keys made before stay listed, to rename or revoke.
    expect(screen.getByRole('button', { name: 'Revoke deploy' })).toBeTruthy();
    const read = api.reads.find((url) => url.pathname.endsWith('/saml_account'));
    expect(read?.searchParams.get('$filter')).toBe(`belongs_to__user eq ${userId}`);
  });

  it('says so when whether the user signs in with SAML cannot be read', async () => {
    renderTab([], (api) => api.refuseNextRead('saml_account', 'The database is away'));
    expect(await screen.findByText(/The database is away/, {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create API key' })).toBeNull();
  });
});
