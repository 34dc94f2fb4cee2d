import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import { newSdk, registerUser, type RegisteredUser } from './contract-helpers.js';

// Login-as through balena-sdk (by patching the login username,
// then a token login): the answer is a token the SDK logs in with, as the user, naming the administrator.
describe('platform administrator login-as through balena-sdk', () => {
  let server: TestServer;
  let member: RegisteredUser;
  let admin: RegisteredUser;

  beforeAll(async () => {
    server = await startTestServer();
    member = await registerUser(server.url, 'loginasmember');
    admin = await registerUser(server.url, 'loginasadmin');
    const { id } = await admin.sdk.auth.getUserInfo();
    await server.db.query(
      `INSERT INTO "user_platform_role" ("user", "role") VALUES ($1, 'balena_admin')`,
      [id],
    );
    // A new session carries the platform role.
    await admin.sdk.auth.login({ email: admin.email, password: admin.password });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('PATCH /login_ answers a token the SDK uses as the user, with actualUser the administrator', async () => {
    const memberInfo = await member.sdk.auth.getUserInfo();
    const adminInfo = await admin.sdk.auth.getUserInfo();
    const { body } = await admin.sdk.request.send({
      method: 'PATCH',
      url: '/login_',
      baseUrl: server.url,
      body: { username: memberInfo.username },
    });
    const token = String(body);
    expect(decodeJwt(token)).toMatchObject({ id: memberInfo.id, actualUser: adminInfo.id });
    const acting = newSdk(server.url);
    await acting.auth.loginWithToken(token);
    expect(await acting.auth.isLoggedIn()).toBe(true);
    expect(await acting.auth.getUserInfo()).toMatchObject({
      id: memberInfo.id,
      email: member.email,
    });
    // The member's own session cannot do the same.
    await expect(
      member.sdk.request.send({
        method: 'PATCH',
        url: '/login_',
        baseUrl: server.url,
        body: { username: adminInfo.username },
      }),
    ).rejects.toMatchObject({ statusCode: 401 });
  });
});
