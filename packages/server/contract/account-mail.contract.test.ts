import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import { startTestSmtpServer, type TestSmtpServer } from '../src/test-support/test-smtp-server.js';
import { newSdk, registerUser } from './contract-helpers.js';

// The link of a received mail's text part matching `pattern` (groups are the link's parts).
const linkIn = (text: string | undefined, pattern: RegExp): string[] => {
  const match = pattern.exec(text ?? '');
  if (!match) throw new Error(`no link matching ${String(pattern)} in:\n${text ?? ''}`);
  return match.slice(1).map((part) => decodeURIComponent(part));
};

const verificationLink = /\/user\/verify-email\/([^/\s]+)\/([^/\s]+)/;
const resetLink = /\/user\/reset-password\/([\w-]+)/;

describe('account mail through SMTP: balena-sdk verification, password reset', () => {
  let server: TestServer;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    // As FLOTILLA_SMTP_URL makes it by default: e-mail verification required.
    server = await startTestServer({
      config: { smtpUrl: smtp.url, requireEmailVerification: true },
    });
  });

  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('auth.requestVerificationEmail mails a link that auth.verifyEmail completes', async () => {
    const user = await registerUser(server.url, 'verify');
    expect(
      await user.sdk.pine.get({
        resource: 'user_profile',
        options: { $select: ['is_verified', 'must_be_verified'] },
      }),
    ).toMatchObject([{ is_verified: false, must_be_verified: true }]);
    // Until verified, the server refuses the rest with a 401 that does not end the session.
    await expect(user.sdk.models.application.getAll()).rejects.toMatchObject({
      statusCode: 401,
      message: expect.stringContaining('Verify your e-mail address first'),
    });
    expect(await user.sdk.auth.isLoggedIn()).toBe(true);
    const signUpMail = await smtp.mailTo(user.email, { subject: /Verify your e-mail/ });
    expect(signUpMail.raw).toMatch(/multipart\/alternative/);

    await user.sdk.auth.requestVerificationEmail();
    await expect
      .poll(() => smtp.received.filter((mail) => mail.to.includes(user.email)).length)
      .toBe(2);
    const resent = smtp.received.filter((mail) => mail.to.includes(user.email))[1];
    const [token = '', email = ''] = linkIn(resent?.parsed.text, verificationLink);
    expect(email).toBe(user.email);

    const jwt = await newSdk(server.url).auth.verifyEmail({ email, token });
    expect(decodeJwt(jwt)).toMatchObject({ id: (await user.sdk.auth.getUserInfo()).id });
    expect(
      await user.sdk.pine.get({ resource: 'user_profile', options: { $select: 'is_verified' } }),
    ).toMatchObject([{ is_verified: true }]);
    // The same session may now do the rest.
    expect(await user.sdk.models.application.getAll()).toEqual([]);
  });

  it('a forgotten password is reset from the mailed link', async () => {
    const user = await registerUser(server.url, 'reset');
    const request = await fetch(
      `${server.url}/user/reset-password/${encodeURIComponent(user.email.toUpperCase())}`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
    );
    expect(request.status).toBe(204);
    const mail = await smtp.mailTo(user.email, { subject: /Reset your Flotilla password/ });
    const [loginCode = ''] = linkIn(mail.parsed.text, resetLink);
    expect(mail.parsed.html).toContain(`/user/reset-password/${loginCode}`);

    const reset = await fetch(`${server.url}/user/reset-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ loginCode, password: 'brand-new-password' }),
    });
    expect(reset.status).toBe(204);
    // The old session ended with the reset; the new password logs in.
    expect(await user.sdk.auth.isLoggedIn()).toBe(false);
    const fresh = newSdk(server.url);
    await fresh.auth.login({ email: user.email, password: 'brand-new-password' });
    expect(await fresh.auth.isLoggedIn()).toBe(true);
  });
});
