// @vitest-environment jsdom
import { passwordResetErrors } from '@flotilla/shared/auth/account-mail';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi, type FakeSession } from '../../test-support/fake-api.js';
import { renderConsoleAt } from '../../test-support/render-console.js';

afterEach(cleanup);

const firstLoad = { timeout: 15_000 };

const renderAt = (path: string, session: FakeSession | null = null) => {
  const api = createFakeApi({ application: [], application_type: [], organization: [] }, session);
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null } }));
  const { router } = renderConsoleAt(api.client, path);
  return { api, router };
};

describe('forgotten password', { timeout: 30_000 }, () => {
  it('leads from the login page to the request, which sends the address and the captcha answer', async () => {
    const { api, router } = renderAt('/login');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Forgot password?' }, firstLoad));
    const send = await screen.findByRole('button', { name: 'Send reset link' }, firstLoad);
    const field = screen.getByLabelText(/E-mail/);
    await waitFor(() => expect(send.hasAttribute('disabled')).toBe(false));
    await user.click(send);
    expect(await screen.findByText('E-mail is required')).toBeTruthy();

    const sent: unknown[] = [];
    api.on('POST', '/user/reset-password/ada%2B1%40example.com', (body) => {
      sent.push(body);
      return { status: 204 };
    });
    await user.type(field, 'ada+1@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/password-reset/success'));
    expect(sent).toEqual([{ 'g-recaptcha-response': 'flotilla-no-captcha' }]);
    expect(await screen.findByText(/If an account has this address/)).toBeTruthy();
  });

  it('shows the server error of a refused request, and stays', async () => {
    const { api, router } = renderAt('/password-reset');
    api.on('POST', '/user/reset-password/ada%40example.com', () => ({
      status: 429,
      text: 'Too Many Requests. Try again later',
    }));
    const user = userEvent.setup();
    const send = await screen.findByRole('button', { name: 'Send reset link' }, firstLoad);
    await user.type(screen.getByLabelText(/E-mail/), 'ada@example.com');
    await waitFor(() => expect(send.hasAttribute('disabled')).toBe(false));
    await user.click(send);
    expect(await screen.findByText('Too Many Requests. Try again shortly')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/password-reset');
  });
});

describe('the reset link page', { timeout: 30_000 }, () => {
  it('checks the password rules and the confirmation before sending', async () => {
    renderAt('/user/reset-password/code1');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^New password/, {}, firstLoad), 'short');
    await user.type(screen.getByLabelText(/Confirm new password/), 'shorter');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy();
    expect(screen.getByText("Passwords don't match")).toBeTruthy();
  });

  it('sends the code with the new password, logs this tab out and offers to log in', async () => {
    const { api } = renderAt('/user/reset-password/code1', {});
    const sent: unknown[] = [];
    api.on('POST', '/user/reset-password', (body) => {
      sent.push(body);
      return { status: 204 };
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^New password/, {}, firstLoad), 'new-password');
    await user.type(screen.getByLabelText(/Confirm new password/), 'new-password');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText(/Your password has been changed/)).toBeTruthy();
    expect(sent).toEqual([{ loginCode: 'code1', password: 'new-password' }]);
    expect(api.client.auth.getToken()).toBeNull();
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
  });

  it('shows an expired or used link clearly, with the way to a new one', async () => {
    const { api } = renderAt('/user/reset-password/old');
    api.on('POST', '/user/reset-password', () => ({
      status: 400,
      text: passwordResetErrors.expired.message,
    }));
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^New password/, {}, firstLoad), 'new-password');
    await user.type(screen.getByLabelText(/Confirm new password/), 'new-password');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(
      await screen.findByText(`Request error: ${passwordResetErrors.expired.message}`),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'New link' }).getAttribute('href')).toBe(
      '/password-reset',
    );
  });
});
