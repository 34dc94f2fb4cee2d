// @vitest-environment jsdom
import type { FlotillaClient } from '@flotilla/sdk/create-client';
import {
  signupClosedMessage,
  signupInvitationOnlyMessage,
} from '@flotilla/shared/auth/signup-mode';
import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import {
  recaptchaOnloadName,
  type RecaptchaParameters,
  recaptchaScriptUrl,
} from '../../ui/recaptcha.js';
import { SignupPage } from './SignupPage.js';
import { invitationToken } from '../../test-support/invitation-tokens.js';

afterEach(cleanup);

const recaptchaScripts = () =>
  [...document.querySelectorAll('script')].filter((script) =>
    script.src.startsWith(recaptchaScriptUrl),
  );

// Only what the page uses of the client: /config and registration.
const clientWith = (config: unknown) => {
  const register = vi.fn(async () => ({ userId: 1 }));
  const client = { config: async () => config, auth: { register } } as unknown as FlotillaClient;
  return { client, register };
};

const fillIn = async (): Promise<void> => {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/E-mail/), 'grace@example.com');
  await user.type(screen.getByLabelText(/Password/), 'a-good-password');
};

const submit = async (): Promise<void> => {
  const button = await screen.findByRole('button', { name: 'Sign up' });
  await vi.waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
  await userEvent.setup().click(button);
};

describe('SignupPage captcha', () => {
  // First in the file: the script, once added, stays on the page.
  it('never loads a captcha script without a site key, and sends the built-in answer', async () => {
    const { client, register } = clientWith({ recaptchaSiteKey: null });
    renderWithClient(client, <SignupPage />, '/signup');
    await fillIn();
    await submit();
    await vi.waitFor(() => expect(register).toHaveBeenCalledTimes(1));
    expect(register).toHaveBeenCalledWith(
      expect.objectContaining({ captchaResponse: 'flotilla-no-captcha' }),
    );
    expect(recaptchaScripts()).toEqual([]);
    expect(screen.queryByTestId('recaptcha')).toBeNull();
  });

  it('renders the reCAPTCHA widget with the site key and sends its answer', async () => {
    const { client, register } = clientWith({ recaptchaSiteKey: 'site-key-1' });
    const rendered: RecaptchaParameters[] = [];
    renderWithClient(client, <SignupPage />, '/signup');
    await vi.waitFor(() => expect(recaptchaScripts()).toHaveLength(1));
    expect(recaptchaScripts()[0]?.src).toBe(
      `${recaptchaScriptUrl}?render=explicit&onload=${recaptchaOnloadName}`,
    );
    // What Google's script does once loaded: define grecaptcha and call the onload callback.
    await act(async () => {
      Reflect.set(window, 'grecaptcha', {
        render: (_container: HTMLElement, parameters: RecaptchaParameters) =>
          rendered.push(parameters),
      });
      const onload: unknown = Reflect.get(window, recaptchaOnloadName);
      if (typeof onload === 'function') onload();
    });
    await vi.waitFor(() => expect(rendered).toHaveLength(1));
    expect(rendered[0]?.sitekey).toBe('site-key-1');

    await fillIn();
    await submit();
    expect(await screen.findByText('Confirm that you are not a robot')).toBeTruthy();
    expect(register).not.toHaveBeenCalled();

    act(() => rendered[0]?.callback('answer-from-google'));
    await submit();
    await vi.waitFor(() => expect(register).toHaveBeenCalledTimes(1));
    expect(register).toHaveBeenCalledWith(
      expect.objectContaining({ captchaResponse: 'answer-from-google' }),
    );
  });
});

describe('SignupPage with an invitation', () => {
  it('says which invitation it accepts and sends its token with the registration', async () => {
    const token = invitationToken();
    window.history.replaceState(null, '', `/signup?invitation=${token}&email=bob%40example.com`);
    const { client, register } = clientWith({ recaptchaSiteKey: null });
    renderWithClient(client, <SignupPage />, '/signup');
    expect(screen.getByText('Signing up accepts your invitation to Acme.')).toBeTruthy();
    await userEvent.setup().type(screen.getByLabelText(/Password/), 'a-good-password');
    await submit();
    await vi.waitFor(() => expect(register).toHaveBeenCalledTimes(1));
    expect(register).toHaveBeenCalledWith(
      expect.objectContaining({
        email: 'bob@example.com',
        invitationType: 'organization',
        invitationToken: token,
      }),
    );
    window.history.replaceState(null, '', '/');
  });
});

describe('SignupPage when sign-up is not open (FLOTILLA_SIGNUP)', () => {
  it('closed: says so and offers no form', async () => {
    const { client, register } = clientWith({ recaptchaSiteKey: null, signup: 'closed' });
    renderWithClient(client, <SignupPage />, '/signup');
    expect(await screen.findByText(signupClosedMessage)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign up' })).toBeNull();
    expect(screen.queryByLabelText(/Password/)).toBeNull();
    expect(register).not.toHaveBeenCalled();
  });

  it('invitation only: says so without an invitation link', async () => {
    const { client } = clientWith({ recaptchaSiteKey: null, signup: 'invitation' });
    renderWithClient(client, <SignupPage />, '/signup');
    expect(await screen.findByText(signupInvitationOnlyMessage)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign up' })).toBeNull();
  });

  it('invitation only: offers the form with an invitation link', async () => {
    const token = invitationToken();
    window.history.replaceState(null, '', `/signup?invitation=${token}&email=bob%40example.com`);
    const { client, register } = clientWith({ recaptchaSiteKey: null, signup: 'invitation' });
    renderWithClient(client, <SignupPage />, '/signup');
    await userEvent.setup().type(screen.getByLabelText(/Password/), 'a-good-password');
    await submit();
    await vi.waitFor(() => expect(register).toHaveBeenCalledTimes(1));
    expect(screen.queryByText(signupInvitationOnlyMessage)).toBeNull();
    window.history.replaceState(null, '', '/');
  });
});

describe('SignupPage billing and newsletter copy', () => {
  it('a self-hosted server: no free-devices line, no newsletter offer, and no opt-in sent', async () => {
    const { client, register } = clientWith({ recaptchaSiteKey: null });
    renderWithClient(client, <SignupPage />, '/signup');
    await fillIn();
    await submit();
    await vi.waitFor(() => expect(register).toHaveBeenCalledTimes(1));
    expect(screen.queryByText(/devices are always free/)).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'Send me product news' })).toBeNull();
    expect(register).toHaveBeenCalledWith(expect.objectContaining({ hasDisabledNewsletter: true }));
  });

  it('an installation that bills and sends a newsletter: says so, the box left unticked', async () => {
    const { client, register } = clientWith({
      recaptchaSiteKey: null,
      billingEnabled: true,
      newsletterEnabled: true,
    });
    renderWithClient(client, <SignupPage />, '/signup');
    expect(await screen.findByText('Your first 10 devices are always free.')).toBeTruthy();
    const box = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Send me product news' });
    expect(box.checked).toBe(false);
    await fillIn();
    await userEvent.setup().click(box);
    await submit();
    await vi.waitFor(() => expect(register).toHaveBeenCalledTimes(1));
    expect(register).toHaveBeenCalledWith(
      expect.objectContaining({ hasDisabledNewsletter: false }),
    );
  });
});
