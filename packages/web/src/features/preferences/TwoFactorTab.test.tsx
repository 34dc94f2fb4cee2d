// @vitest-environment jsdom
import { freshAuthenticationRequiredMessage } from '@flotilla/shared/auth/reauthentication';
import { twoFactorQrSize } from '@flotilla/shared/auth/two-factor';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientProvider } from '../../api/client.js';
import { consoleRouterAt } from '../../test-support/render-console.js';
import { createFakeApi, type FakeSession, sessionToken } from '../../test-support/fake-api.js';
import { ToastProvider } from '../../ui/toasts.js';

afterEach(cleanup);

const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const codes = ['abcde-fghjk', 'mnpqr-stuvw'];

const renderTab = (session: FakeSession) => {
  const api = createFakeApi({ application: [], application_type: [], organization: [] }, session);
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null } }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'ada', email: 'ada@x.test' },
  }));
  const router = consoleRouterAt('/preferences/2fa');
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

describe('Preferences → Two-factor authentication', { timeout: 20_000 }, () => {
  it('sets up with a 210 px QR code and the key, enables with a code, shows the recovery codes once', async () => {
    const api = renderTab({});
    const calls: string[] = [];
    api.on('GET', '/auth/totp/setup', () => {
      calls.push('setup');
      return { status: 200, text: secret };
    });
    api.on('POST', '/auth/totp/verify', (body) => {
      calls.push(`verify ${JSON.stringify(body)}`);
      return { status: 200, text: sessionToken({ twoFactorRequired: false }) };
    });
    api.on('POST', '/auth/v1/2fa-recover/create', () => {
      calls.push('create');
      return { status: 200, body: codes };
    });
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole(
        'button',
        { name: 'Set up two-factor authentication' },
        { timeout: 10_000 },
      ),
    );
    const qr = await screen.findByRole('img', { name: 'QR code of the authenticator key' });
    expect(qr.getAttribute('width')).toBe(String(twoFactorQrSize));
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(screen.getByLabelText('Authenticator key').textContent).toBe(secret);

    await user.click(screen.getByRole('button', { name: 'Enable' }));
    expect(await screen.findByText('A two-factor authentication code is required')).toBeTruthy();
    await user.type(screen.getByLabelText('Authentication code'), '123 456');
    await user.click(screen.getByRole('button', { name: 'Enable' }));
    const shown = await screen.findByRole('region', { name: 'Recovery codes' });
    expect(
      within(shown)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(codes);
    expect(calls).toEqual(['setup', 'verify {"code":"123456"}', 'create']);

    await user.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(await screen.findByText('Two-factor authentication is enabled.')).toBeTruthy();
    expect(screen.queryByText(codes[0] ?? '')).toBeNull();
  });

  it('asks for the password first when the re-authentication window is over', async () => {
    const api = renderTab({});
    let asked = 0;
    api.on('GET', '/auth/totp/setup', () => {
      asked += 1;
      return asked === 1
        ? { status: 401, text: freshAuthenticationRequiredMessage }
        : { status: 200, text: secret };
    });
    api.on('POST', '/user/v1/refresh-token', () => ({
      status: 200,
      text: sessionToken({ authTime: Date.now() + 1 }),
    }));
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole(
        'button',
        { name: 'Set up two-factor authentication' },
        { timeout: 10_000 },
      ),
    );
    const confirm = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await user.type(within(confirm).getByLabelText('Password'), 'the-password');
    await user.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByLabelText('Authenticator key')).toBeTruthy();
    expect(asked).toBe(2);
  });

  it('regenerates the recovery codes and disables with the password', async () => {
    const api = renderTab({ twoFactorRequired: false });
    api.on('POST', '/auth/v1/2fa-recover/create', () => ({ status: 200, body: codes }));
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Regenerate recovery codes' }, { timeout: 10_000 }),
    );
    await screen.findByRole('region', { name: 'Recovery codes' });
    await user.click(screen.getByRole('button', { name: 'I have saved them' }));

    const passwords: unknown[] = [];
    api.on('POST', '/auth/totp/disable', (body) => {
      passwords.push(body);
      return passwords.length === 1
        ? { status: 401, text: 'Invalid password' }
        : { status: 200, text: sessionToken() };
    });
    await user.click(screen.getByRole('button', { name: 'Disable two-factor authentication' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable two-factor authentication' });
    const disable = within(dialog).getByRole('button', { name: 'Disable' });
    expect(disable.hasAttribute('disabled')).toBe(true);
    await user.type(within(dialog).getByLabelText('Password'), 'wrong');
    await user.click(disable);
    expect(await within(dialog).findByText('Invalid password')).toBeTruthy();
    await user.clear(within(dialog).getByLabelText('Password'));
    await user.type(within(dialog).getByLabelText('Password'), 'right-password');
    await user.click(disable);
    expect(
      await screen.findByRole('button', { name: 'Set up two-factor authentication' }),
    ).toBeTruthy();
    expect(passwords).toEqual([{ password: 'wrong' }, { password: 'right-password' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
