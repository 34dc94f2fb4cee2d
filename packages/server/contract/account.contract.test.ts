import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import {
  expectBalenaError,
  newSdk,
  registerUser,
  type RegisteredUser,
} from './contract-helpers.js';

// balena-sdk has no password call; the console's PATCH /user/password is sent through the SDK's
// own request (as the dashboard does), and its sessions are balena-sdk sessions.
describe('account: password change against balena-sdk sessions', () => {
  let server: TestServer;
  let user: RegisteredUser;

  beforeAll(async () => {
    server = await startTestServer();
    user = await registerUser(server.url, 'password');
  });

  afterAll(async () => {
    await server?.close();
  });

  it('changing the password ends every other session; the new token keeps this one', async () => {
    const other = newSdk(server.url);
    await other.auth.login({ email: user.email, password: user.password });
    expect(await other.auth.isLoggedIn()).toBe(true);

    const newPassword = `${user.password}-new`;
    const { body: token } = await user.sdk.request.send({
      method: 'PATCH',
      url: '/user/password',
      baseUrl: server.url,
      body: { currentPassword: user.password, password: newPassword },
    });
    expect(typeof token).toBe('string');
    await user.sdk.auth.loginWithToken(String(token));
    expect(await user.sdk.auth.isLoggedIn()).toBe(true);

    expect(await other.auth.isLoggedIn()).toBe(false);
    await expectBalenaError(
      newSdk(server.url).auth.login({ email: user.email, password: user.password }),
      'BalenaInvalidLoginCredentials',
    );
    await newSdk(server.url).auth.login({ email: user.email, password: newPassword });
  });
});
