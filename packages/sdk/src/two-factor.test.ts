import { describe, expect, it } from 'vitest';
import { createTestClient } from './test-support/test-client.js';
import { twoFactorApi } from './two-factor.js';

const base64url = (value: object): string =>
  Buffer.from(JSON.stringify(value)).toString('base64url');

const tokenWith = (claims: Record<string, unknown>, clockNow: number): string => {
  const iat = Math.floor(clockNow / 1000);
  return `${base64url({ alg: 'HS256' })}.${base64url({
    id: 7,
    authTime: clockNow,
    permissions: [],
    iat,
    exp: iat + 3600,
    ...claims,
  })}.sig`;
};

describe('twoFactorApi', () => {
  it('verify sends the code and adopts the passed session the server answers', async () => {
    const { client, server, clock } = createTestClient();
    await client.auth.loginWithToken(tokenWith({ twoFactorRequired: true }, clock.now()));
    const passed = tokenWith({ twoFactorRequired: false }, clock.now());
    server.on('POST', '/auth/totp/verify', { text: passed });
    const session = await twoFactorApi(client).verify('123456');
    expect(session.twoFactorRequired).toBe(false);
    expect(client.auth.getToken()).toBe(passed);
    expect(server.calls[0]?.body).toEqual({ code: '123456' });
  });

  it('a refused code keeps the pending session', async () => {
    const { client, server, clock } = createTestClient();
    const pending = tokenWith({ twoFactorRequired: true }, clock.now());
    await client.auth.loginWithToken(pending);
    server.on('POST', '/auth/v1/2fa-recover/verify', {
      status: 400,
      text: 'Invalid two-factor authentication code',
    });
    await expect(twoFactorApi(client).recover('aaaaa-bbbbb')).rejects.toThrow(
      'Invalid two-factor authentication code',
    );
    expect(client.auth.getToken()).toBe(pending);
  });

  it('recovery codes must come back as a list of strings', async () => {
    const { client, server } = createTestClient('key');
    server.on('POST', '/auth/v1/2fa-recover/create', { json: ['abcde-fghjk'] });
    expect(await twoFactorApi(client).createRecoveryCodes()).toEqual(['abcde-fghjk']);
    server.on('POST', '/auth/v1/2fa-recover/create', { json: { codes: [] } });
    await expect(twoFactorApi(client).createRecoveryCodes()).rejects.toThrow(/no recovery codes/);
  });
});
