import { twoFactorErrors } from '@flotilla/shared/auth/two-factor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCodeAt } from '../src/features/two-factor/totp.js';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import { failureOf, newSdk, registerUser, type RegisteredUser } from './contract-helpers.js';

describe('auth.twoFactor: balena-sdk two-factor against Flotilla', () => {
  let server: TestServer;
  let user: RegisteredUser;
  let secret: string;
  // The server's clock runs this far ahead of the real one: each code is single-use, so the tests
  // move to the next 30 s step instead of waiting for it (the SDK still finds the tokens fresh).
  let offsetMs = 0;
  const serverNow = () => new Date(Date.now() + offsetMs);
  const nextCode = (): string => {
    offsetMs += 30_000;
    return totpCodeAt(secret, serverNow());
  };

  beforeAll(async () => {
    server = await startTestServer({ now: serverNow });
    user = await registerUser(server.url, 'twofactor');
  });

  afterAll(async () => {
    await server?.close();
  });

  it('getSetupKey gives a base32 key; enable stores a passed session; isEnabled and isPassed follow', async () => {
    expect(await user.sdk.auth.twoFactor.isEnabled()).toBe(false);
    secret = await user.sdk.auth.twoFactor.getSetupKey();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const token = await user.sdk.auth.twoFactor.enable(nextCode());
    expect(await user.sdk.auth.getToken()).toBe(token);
    expect(await user.sdk.auth.twoFactor.isEnabled()).toBe(true);
    expect(await user.sdk.auth.twoFactor.isPassed()).toBe(true);
    expect((await user.sdk.auth.getUserInfo()).email).toBe(user.email);
  });

  it('verify checks a code and answers a token without storing it', async () => {
    const before = await user.sdk.auth.getToken();
    const token = await user.sdk.auth.twoFactor.verify(nextCode());
    expect(typeof token).toBe('string');
    expect(token.split('.')).toHaveLength(3);
    expect(await user.sdk.auth.getToken()).toBe(before);
  });

  it('a login is challenged: nothing works until challenge passes it', async () => {
    const sdk = newSdk(server.url);
    await sdk.auth.login({ email: user.email, password: user.password });
    expect(await sdk.auth.twoFactor.isEnabled()).toBe(true);
    expect(await sdk.auth.twoFactor.isPassed()).toBe(false);
    const refused = await failureOf(sdk.models.organization.create({ name: 'Not yet' }));
    expect(refused.statusCode).toBe(401);

    const wrong = await failureOf(sdk.auth.twoFactor.challenge('000000'));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.message).toContain(twoFactorErrors.invalid.message);
    expect(await sdk.auth.twoFactor.isPassed()).toBe(false);

    await sdk.auth.twoFactor.challenge(nextCode());
    expect(await sdk.auth.twoFactor.isPassed()).toBe(true);
    const organization = await sdk.models.organization.create({ name: `Passed ${offsetMs}` });
    expect(organization.id).toEqual(expect.any(Number));
  });

  it('disable needs the password, then logins are no longer challenged', async () => {
    const wrong = await failureOf(user.sdk.auth.twoFactor.disable('not-the-password'));
    expect(wrong.statusCode).toBe(401);
    await user.sdk.auth.twoFactor.disable(user.password);
    expect(await user.sdk.auth.twoFactor.isEnabled()).toBe(false);

    const sdk = newSdk(server.url);
    await sdk.auth.login({ email: user.email, password: user.password });
    expect(await sdk.auth.twoFactor.isEnabled()).toBe(false);
    expect(await sdk.auth.twoFactor.isPassed()).toBe(true);
  });
});
