// @vitest-environment jsdom
import { twoFactorErrors } from '@flotilla/shared/auth/two-factor';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeApi, sessionToken } from '../../test-support/fake-api.js';
import { answerBoot, renderConsoleAt } from '../../test-support/render-console.js';

const renderPending = () => {
  const api = createFakeApi(
    { application: [], application_type: [], organization: [] },
    {
      twoFactorRequired: true,
    },
  );
  answerBoot(api);
  const { router } = renderConsoleAt(api.client, '/login/two-factor?redirect=%2Fblocks');
  return { api, router };
};

const passedToken = () => sessionToken({ twoFactorRequired: false });

describe('the two-factor login page', { timeout: 20_000 }, () => {
  beforeEach(() => window.localStorage.clear());
  afterEach(cleanup);

  it('sends the authenticator code as its 6th digit is typed, then goes where the user was going', async () => {
    const { api, router } = renderPending();
    const sent: unknown[] = [];
    api.on('POST', '/auth/totp/verify', (body) => {
      sent.push(body);
      return { status: 200, text: passedToken() };
    });
    const field = await screen.findByLabelText(/Authentication code/, {}, { timeout: 10_000 });
    const user = userEvent.setup();
    await user.type(field, '12345');
    expect(sent).toEqual([]);
    await user.type(field, '6');
    await waitFor(() => expect(router.state.location.pathname).toBe('/blocks'), {
      timeout: 10_000,
    });
    expect(sent).toEqual([{ code: '123456' }]);
  });

  it('shows a refused code and lets the user type another', async () => {
    const { api } = renderPending();
    api.on('POST', '/auth/totp/verify', () => ({
      status: 400,
      text: twoFactorErrors.invalid.message,
    }));
    const field = await screen.findByLabelText(/Authentication code/, {}, { timeout: 10_000 });
    await userEvent.setup().type(field, '000000');
    expect(await screen.findByText(twoFactorErrors.invalid.message)).toBeTruthy();
    expect(field).toHaveProperty('value', '');
  });

  it('requires a code before sending and toggles to a recovery code', async () => {
    const { api, router } = renderPending();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Verify' }, { timeout: 10_000 }));
    expect(await screen.findByText(twoFactorErrors.required.message)).toBeTruthy();

    const sent: unknown[] = [];
    api.on('POST', '/auth/v1/2fa-recover/verify', (body) => {
      sent.push(body);
      return { status: 200, text: passedToken() };
    });
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    await user.type(screen.getByLabelText(/Recovery code/), 'ABCDE-FGHJK');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/blocks'), {
      timeout: 10_000,
    });
    expect(sent).toEqual([{ code: 'abcdefghjk' }]);
  });
});
