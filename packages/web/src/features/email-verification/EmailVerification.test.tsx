// @vitest-environment jsdom
import { emailTakenMessage } from '@flotilla/shared/auth/account-mail';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi, type FakeSession, sessionToken } from '../../test-support/fake-api.js';
import { answerBoot, renderConsoleAt } from '../../test-support/render-console.js';
import { testUserId } from '../../test-support/fixtures.js';
import { ownUserRow, userProfileRow } from '../../test-support/profile-fixtures.js';

afterEach(cleanup);

const firstLoad = { timeout: 15_000 };

const renderAt = (
  path: string,
  profile: Record<string, unknown> = {},
  session: FakeSession | null = {},
) => {
  const api = createFakeApi(
    {
      application: [],
      application_type: [],
      organization: [],
      user_profile: [userProfileRow(profile)],
      user: [ownUserRow()],
    },
    session,
  );
  answerBoot(api);
  const { router } = renderConsoleAt(api.client, path);
  return { api, router };
};

const unverified = { must_be_verified: true, is_verified: false };

// The info line about a new address waiting for its link (the address is in bold).
const pendingNotice =
  (address: string) =>
  (_: string, element: Element | null): boolean =>
    element?.classList.contains('MuiAlert-message') === true &&
    element.textContent ===
      `We sent a verification link to ${address}. Your address changes once you open it.`;

describe('a user who must verify their e-mail address', { timeout: 30_000 }, () => {
  it('is sent to the pending page, where a burst of resend clicks asks once', async () => {
    const { api, router } = renderAt('/fleets', unverified);
    await waitFor(
      () => expect(router.state.location.pathname).toBe('/user/verify-email/pending'),
      firstLoad,
    );
    expect(await screen.findByText('ada@x.test', undefined, firstLoad)).toBeTruthy();
    // The fleet list waited for the profile: the server would refuse its reads.
    expect(new Set(api.reads.map((url) => url.pathname))).toEqual(new Set(['/v7/user_profile']));
    const user = userEvent.setup();
    const resend = screen.getByRole('button', { name: 'Send the link again' });
    await user.click(resend);
    await user.click(resend);
    await user.click(resend);
    expect(await screen.findByText('A new link is on its way.')).toBeTruthy();
    expect(api.writes).toEqual([
      {
        method: 'PATCH',
        resource: 'user',
        id: testUserId,
        body: { has_been_sent_verification_email: true },
      },
    ]);
  });

  it('may log out from there', async () => {
    const { api, router } = renderAt('/user/verify-email/pending', unverified);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Log out' }, firstLoad));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(api.client.auth.getToken()).toBeNull();
  });

  it('shows a platform administrator logged in as the user the way back', async () => {
    renderAt('/user/verify-email/pending', unverified, { actualUser: 1 });
    expect(
      await screen.findByRole('button', { name: 'Back to my account' }, firstLoad),
    ).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByText(/by a platform administrator/).textContent).toMatch(
        /logged in as ada by/,
      ),
    );
  });

  it('is not held when verification is not required, nor once verified', async () => {
    const { router } = renderAt('/user/verify-email/pending', {
      must_be_verified: false,
      is_verified: false,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/fleets'), firstLoad);
  });
});

describe('the verification link page', { timeout: 30_000 }, () => {
  it('verifies, signs the user in with the answered session, in either order of the parts', async () => {
    for (const path of [
      '/user/verify-email/tok-1/ada%40x.test',
      '/user/verify-email/ada%40x.test/tok-1',
    ]) {
      const { api } = renderAt(path, {}, null);
      const sent: unknown[] = [];
      const token = sessionToken();
      api.on('POST', '/user/v1/verify-email', (body) => {
        sent.push(body);
        return { status: 200, text: token };
      });
      expect(await screen.findByText('E-mail address verified', undefined, firstLoad)).toBeTruthy();
      // A link works once: it is posted once.
      expect(sent).toEqual([{ verificationToken: 'tok-1', email: 'ada@x.test' }]);
      expect(api.client.auth.getToken()).toBe(token);
      expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/');
      cleanup();
    }
  });

  it('posts a link once, even when React runs the effect twice (StrictMode)', async () => {
    const api = createFakeApi({}, null);
    answerBoot(api);
    const sent: unknown[] = [];
    api.on('POST', '/user/v1/verify-email', (body) => {
      sent.push(body);
      return { status: 200, text: sessionToken() };
    });
    renderConsoleAt(api.client, '/user/verify-email/tok-2/ada%40x.test', { strict: true });
    expect(await screen.findByText('E-mail address verified', undefined, firstLoad)).toBeTruthy();
    expect(sent).toEqual([{ verificationToken: 'tok-2', email: 'ada@x.test' }]);
  });

  it('says when the link cannot be used, and leads to a new one', async () => {
    const { api } = renderAt('/user/verify-email/forged/ada%40x.test', {}, null);
    api.on('POST', '/user/v1/verify-email', () => ({
      status: 400,
      text: 'Invalid verification link',
    }));
    expect(
      await screen.findByText('Request error: Invalid verification link', undefined, firstLoad),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Send a new link' }).getAttribute('href')).toBe(
      '/user/verify-email/pending',
    );
  });
});

describe('Preferences → Account details: the e-mail address', { timeout: 30_000 }, () => {
  it('changes it with the password; pending verification is said so', async () => {
    const { api } = renderAt('/preferences');
    const sent: unknown[] = [];
    api.on('PATCH', '/user/email', (body) => {
      sent.push(body);
      // The server keeps the new address aside until its link is opened.
      api.data.user = [ownUserRow({ pending_email: 'new@x.test' })];
      return { status: 204 };
    });
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'Change e-mail' }, firstLoad);
    await user.type(screen.getByLabelText('New e-mail'), 'new@x.test');
    expect(button.hasAttribute('disabled')).toBe(true);
    await user.type(screen.getByLabelText('Password'), 'the-password');
    await user.click(button);
    expect(await screen.findByText(pendingNotice('new@x.test'))).toBeTruthy();
    expect(sent).toEqual([{ email: 'new@x.test', password: 'the-password' }]);
  });

  it('shows the address waiting for verification after a reload', async () => {
    const { api } = renderAt('/preferences');
    api.data.user = [ownUserRow({ pending_email: 'later@x.test' })];
    expect(
      await screen.findByText(pendingNotice('later@x.test'), undefined, firstLoad),
    ).toBeTruthy();
  });

  it('says when it cannot check for an address waiting for verification, and retries', async () => {
    const { api } = renderAt('/preferences');
    api.refuseNextRead('user', 'database unavailable', { status: 503 });
    const retry = await screen.findByRole('button', { name: 'Retry' }, firstLoad);
    expect(
      screen.getByText('Could not check for a new address waiting for verification.'),
    ).toBeTruthy();
    api.data.user = [ownUserRow({ pending_email: 'later@x.test' })];
    await userEvent.setup().click(retry);
    expect(await screen.findByText(pendingNotice('later@x.test'))).toBeTruthy();
  });

  it('shows a taken address clearly', async () => {
    const { api } = renderAt('/preferences');
    api.on('PATCH', '/user/email', () => ({ status: 409, text: emailTakenMessage }));
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'Change e-mail' }, firstLoad);
    await user.type(screen.getByLabelText('New e-mail'), 'taken@x.test');
    await user.type(screen.getByLabelText('Password'), 'the-password');
    await user.click(button);
    expect(await screen.findByText(`Request error: ${emailTakenMessage}`)).toBeTruthy();
  });

  it('offers a new verification link while the address is not verified', async () => {
    const { api } = renderAt('/preferences', { is_verified: false });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Resend link' }, firstLoad));
    expect(await screen.findByText('A new verification link is on its way.')).toBeTruthy();
    expect(api.writes).toMatchObject([
      { method: 'PATCH', resource: 'user', body: { has_been_sent_verification_email: true } },
    ]);
  });
});
