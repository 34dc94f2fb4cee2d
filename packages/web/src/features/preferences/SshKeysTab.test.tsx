// @vitest-environment jsdom
import { sshKeyMessages } from '@flotilla/shared/ssh-keys/ssh-key-rules';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientProvider } from '../../api/client.js';
import { consoleRouterAt } from '../../test-support/render-console.js';
import { createFakeApi } from '../../test-support/fake-api.js';
import { testUserId } from '../../test-support/fixtures.js';
import { ToastProvider } from '../../ui/toasts.js';

afterEach(cleanup);

const laptopKey = {
  id: 3,
  title: 'laptop',
  public_key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBS2b1Ui ada@laptop',
  fingerprint: 'd1:3f:f4:13:d0:89:58:ac:a6:df:a4:62:64:0f:86:3f',
  created_at: '2026-11-01T10:00:00Z',
  user: { __id: testUserId },
};

const renderTab = () => {
  const api = createFakeApi({
    application: [],
    application_type: [],
    organization: [],
    user__has__public_key: [laptopKey],
  });
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null } }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'ada', email: 'ada@x.test' },
  }));
  api.shapeCreated('user__has__public_key', (body) => ({
    ...body,
    fingerprint: 'aa:bb',
    created_at: '2026-11-24T10:00:00Z',
    user: { __id: testUserId },
  }));
  const router = consoleRouterAt('/preferences/sshkeys');
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

describe('Preferences → SSH keys', { timeout: 20_000 }, () => {
  it('lists the keys with their fingerprint', async () => {
    renderTab();
    const table = await screen.findByRole('table', { name: 'SSH keys' }, { timeout: 10_000 });
    const row = within(table).getByText('laptop').closest('tr');
    expect(row?.textContent).toContain(laptopKey.fingerprint);
  });

  it('checks title and key before sending, shows the server refusal, then adds', async () => {
    const api = renderTab();
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Add SSH key' }, { timeout: 10_000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Add SSH key' });
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByText(sshKeyMessages.titleRequired)).toBeTruthy();
    expect(within(dialog).getByText(sshKeyMessages.keyRequired)).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Title'), 'desktop');
    await user.type(within(dialog).getByLabelText('Public key'), 'not a key');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByText(sshKeyMessages.invalid)).toBeTruthy();
    expect(api.writes).toEqual([]);

    await user.clear(within(dialog).getByLabelText('Public key'));
    await user.type(within(dialog).getByLabelText('Public key'), 'ssh-ed25519 AAAAC3Nza');
    api.refuseNext('POST', 'user__has__public_key', undefined, sshKeyMessages.duplicate, 409);
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText(new RegExp(sshKeyMessages.duplicate))).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('desktop')).toBeTruthy();
    expect(api.writes.at(-1)).toMatchObject({
      method: 'POST',
      resource: 'user__has__public_key',
      body: { user: testUserId, title: 'desktop', public_key: 'ssh-ed25519 AAAAC3Nza' },
    });
  });

  it('imports the keys of a GitHub account and says what happened', async () => {
    const api = renderTab();
    const sent: unknown[] = [];
    api.on('POST', '/user/v1/public-keys/import', (body) => {
      sent.push(body);
      return { status: 200, body: { saved: 1, alreadySaved: 1, failed: 0 } };
    });
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Import from GitHub' }, { timeout: 10_000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Import SSH keys from GitHub' });
    await user.type(within(dialog).getByLabelText('GitHub username'), ' octocat ');
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(
      await within(dialog).findByText(
        'Failed to save some SSH keys: 1 saved, 1 already saved, 0 failed',
      ),
    ).toBeTruthy();
    expect(sent).toEqual([{ username: 'octocat' }]);
  });

  it('removes a key after confirmation', async () => {
    const api = renderTab();
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Remove laptop' }, { timeout: 10_000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Remove SSH key' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('No SSH keys yet')).toBeTruthy();
    expect(api.writes).toEqual([
      { method: 'DELETE', resource: 'user__has__public_key', id: laptopKey.id, body: undefined },
    ]);
  });
});
