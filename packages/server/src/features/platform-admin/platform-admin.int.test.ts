import { randomBytes } from 'node:crypto';
import type { AdminUserPage } from '@flotilla/shared/users/admin-users';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import { createActorResolution } from '../../infra/auth/actor-resolution.js';
import { hashTestPassword } from '../../test-support/test-passwords.js';
import type { Database } from '../../infra/db/database.js';
import { createApp } from '../../infra/http/create-app.js';
import { registerNotificationBus } from '../../infra/http/register-notification-bus.js';
import { registerODataRoutes } from '../../infra/odata/register-odata-routes.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { waitForValue } from '../../test-support/wait-for.js';
import { registerEmailChange } from '../account/change-email.js';
import { registerAccountDeletion } from '../account/delete-account.js';
import { registerAccount } from '../account/register-account.js';
import { registerApiKeyHooks } from '../api-keys/api-key-hooks.js';
import { registerApiKeys } from '../api-keys/register-api-keys.js';
import { registerAuth } from '../auth/register-auth.js';
import { createVerificationSigner } from '../email-verification/verification-token.js';
import { registerSshKeyHooks } from '../ssh-keys/ssh-key-hooks.js';
import { registerTwoFactor } from '../two-factor/register-two-factor.js';
import { registerPlatformAdmin } from './register-platform-admin.js';

let db: Database;
let app: FastifyInstance;
let ctx: AppContext;
const logLines: string[] = [];
const ids: Record<string, number> = {};
const idOf = (username: string): number => {
  const id = ids[username];
  if (id === undefined) throw new Error(`no user ${username}`);
  return id;
};

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const createAccount = async (username: string, role?: string): Promise<void> => {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "user" ("username", "email", "password_hash") VALUES ($1, $2, $3) RETURNING "id"`,
    [username, `${username}@example.com`, await hashTestPassword(`${username}-password`)],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('no user');
  ids[username] = id;
  if (role) {
    await db.query(`INSERT INTO "user_platform_role" ("user", "role") VALUES ($1, $2)`, [id, role]);
  }
};

const login = async (username: string): Promise<string> => {
  const response = await app.inject({
    method: 'POST',
    url: '/login_',
    payload: { username, password: `${username}-password` },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.body;
};

const loginAs = (token: string | undefined, username: string) =>
  app.inject({
    method: 'PATCH',
    url: '/login_',
    headers: token === undefined ? {} : bearer(token),
    payload: { username },
  });

const listUsers = (token: string | undefined, query = '') =>
  app.inject({ url: `/admin/v1/users${query}`, headers: token === undefined ? {} : bearer(token) });

const whoami = (token: string) => app.inject({ url: '/actor/v1/whoami', headers: bearer(token) });

beforeAll(async () => {
  db = await createTestDatabase();
  ctx = createTestContext(db);
  // The real HTTP stack, logging at info into lines the tests read.
  const actors = createActorResolution(ctx);
  app = createApp({
    resolveActor: actors.resolveActor,
    logLevel: 'info',
    logStream: { write: (line) => void logLines.push(line) },
  });
  registerNotificationBus(app, ctx.notifications);
  actors.attach(app, ctx.notifications);
  registerAuth(app, ctx);
  registerApiKeys(app, ctx);
  registerPlatformAdmin(app, ctx);
  registerTwoFactor(app, ctx);
  registerAccount(app, ctx);
  registerAccountDeletion(app, ctx);
  registerEmailChange(app, ctx, {
    signer: createVerificationSigner(ctx.jwtSecret),
    publicUrl: () => 'https://flotilla.example.com',
  });
  registerApiKeyHooks(ctx.hooks);
  registerSshKeyHooks(ctx.hooks);
  registerODataRoutes(app, ctx);
  await app.ready();
  await createAccount('root', 'balena_admin');
  await createAccount('second_admin', 'balena_admin');
  await createAccount('helper', 'support_agent');
  await createAccount('ann');
  await createAccount('annika');
  await createAccount('a_b');
  await createAccount('axb');
});

afterAll(async () => {
  await app.close();
  await db.close();
});

describe('platform admin routes refuse everyone but platform administrators', () => {
  it('answers 401 to a guest, a user, a support agent and a non-admin API key', async () => {
    const user = await login('ann');
    const agent = await login('helper');
    const key = await app.inject({
      method: 'POST',
      url: '/api-key/user/full',
      headers: bearer(user),
      payload: { name: 'cli' },
    });
    expect(key.statusCode, key.body).toBe(200);
    const callers: (string | undefined)[] = [undefined, user, agent, key.json<string>()];
    for (const caller of callers) {
      expect((await listUsers(caller)).statusCode).toBe(401);
      expect((await loginAs(caller, 'annika')).statusCode).toBe(401);
    }
  });
});

describe('the user list', () => {
  it('searches usernames and e-mails ignoring case, with % and _ taken literally', async () => {
    const admin = await login('root');
    const page = async (query: string): Promise<AdminUserPage> => {
      const response = await listUsers(admin, query);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<AdminUserPage>();
    };
    expect((await page('?search=ANN')).users.map((user) => user.username)).toEqual([
      'ann',
      'annika',
    ]);
    expect((await page('?search=a_b')).users.map((user) => user.username)).toEqual(['a_b']);
    expect((await page('?search=%25')).total).toBe(0);
    expect((await page('?search=annika%40example')).users.map((user) => user.id)).toEqual([
      ids.annika,
    ]);
    const all = await page('');
    expect(all.total).toBe(7);
    expect(all.users.find((user) => user.username === 'root')?.platformRoles).toEqual([
      'balena_admin',
    ]);
  });

  it('pages on the server and keeps the total past the last page', async () => {
    const admin = await login('root');
    const second = (await listUsers(admin, '?limit=2&offset=2')).json<AdminUserPage>();
    expect(second.total).toBe(7);
    expect(second.users.map((user) => user.username)).toEqual(['helper', 'ann']);
    const beyond = (await listUsers(admin, '?limit=2&offset=50')).json<AdminUserPage>();
    expect(beyond).toEqual({ total: 7, users: [] });
  });

  it('refuses a malformed query with 400', async () => {
    const admin = await login('root');
    expect((await listUsers(admin, '?limit=0')).statusCode).toBe(400);
    expect((await listUsers(admin, `?search=${'x'.repeat(101)}`)).statusCode).toBe(400);
  });
});

describe('login-as', () => {
  it("answers a token for the user whose actualUser is the administrator, without the administrator's permissions", async () => {
    const admin = await login('root');
    const response = await loginAs(admin, 'ANNIKA@example.com');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const claims = decodeJwt(response.body);
    expect(claims).toMatchObject({ id: ids.annika, actualUser: ids.root, permissions: [] });
    const me = (await whoami(response.body)).json<{ actorTypeId: number; username: string }>();
    expect(me).toMatchObject({ actorTypeId: ids.annika, username: 'annika' });
    // The session is the user's: the admin routes are closed to it.
    expect((await listUsers(response.body)).statusCode).toBe(401);
  });

  it('logs every request of a login-as session with the administrator and the user', async () => {
    const admin = await login('root');
    const token = (await loginAs(admin, 'ann')).body;
    const before = logLines.length;
    expect((await whoami(token)).statusCode).toBe(200);
    const lines = logLines
      .slice(before)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.url === '/actor/v1/whoami');
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        userId: ids.ann,
        actualUser: ids.root,
        statusCode: 200,
      }),
    ]);
    // Ordinary requests stay at debug (not written at info).
    const own = logLines.length;
    await whoami(admin);
    expect(logLines.slice(own).some((line) => line.includes('/actor/v1/whoami'))).toBe(false);
  });

  it('refuses unknown users, oneself, a bad body, and login-as from a login-as session', async () => {
    const admin = await login('root');
    expect((await loginAs(admin, 'nobody')).statusCode).toBe(404);
    expect((await loginAs(admin, 'root')).statusCode).toBe(400);
    const empty = await app.inject({
      method: 'PATCH',
      url: '/login_',
      headers: bearer(admin),
      payload: { username: 5 },
    });
    expect(empty.statusCode).toBe(400);
    const asOtherAdmin = (await loginAs(admin, 'second_admin')).body;
    const nested = await loginAs(asOtherAdmin, 'ann');
    expect(nested.statusCode).toBe(401);
    expect(nested.body).toContain('Return to your own account');
  });

  it('ends the login-as session when its administrator loses admin.home', async () => {
    await createAccount('temp_admin', 'balena_admin');
    const admin = await login('temp_admin');
    const token = (await loginAs(admin, 'axb')).body;
    expect((await whoami(token)).statusCode).toBe(200);
    await db.query(`DELETE FROM "user_platform_role" WHERE "user" = $1`, [idOf('temp_admin')]);
    await waitForValue(
      'the login-as session to be refused',
      async () => (await whoami(token)).statusCode,
      (status) => status === 401,
    );
  });
});

// An ed25519 public key line (type and base64 body) with a random key.
const sshKeyLine = (): string => {
  const field = (bytes: Buffer): Buffer => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    return Buffer.concat([length, bytes]);
  };
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(randomBytes(32))]);
  return `ssh-ed25519 ${blob.toString('base64')}`;
};

describe('a login-as session', () => {
  it("is no fresh authentication: it takes nothing of the user's account, and writes nothing", async () => {
    await createAccount('victim');
    const admin = await login('root');
    const token = (await loginAs(admin, 'victim')).body;
    const victim = idOf('victim');
    const state = async () =>
      (
        await db.query(
          `SELECT (SELECT count(*)::integer FROM "api_key") AS "keys",
                  (SELECT count(*)::integer FROM "user_two_factor") AS "two_factor",
                  (SELECT count(*)::integer FROM "user__has__public_key") AS "ssh_keys",
                  u."password_hash", u."email", u."pending_email", u."jwt_secret"
             FROM "user" u WHERE u."id" = $1`,
          [victim],
        )
      ).rows[0];
    const before = await state();
    const userKey = { actorType: 'user', actorTypeId: victim, roles: ['named-user-api-key'] };
    const attempts = [
      { method: 'POST', url: '/api-key/user/full', payload: { name: 'mine now' } },
      { method: 'POST', url: '/api-key/v1', payload: userKey },
      { method: 'POST', url: '/api-key/v2', payload: userKey },
      { method: 'GET', url: '/auth/totp/setup' },
      { method: 'POST', url: '/auth/totp/disable', payload: { password: 'victim-password' } },
      { method: 'POST', url: '/auth/v1/2fa-recover/create' },
      {
        method: 'PATCH',
        url: '/user/password',
        payload: { currentPassword: 'victim-password', password: 'admin-chosen-password' },
      },
      {
        method: 'PATCH',
        url: '/user/email',
        payload: { email: 'admin@example.com', password: 'victim-password' },
      },
      { method: 'POST', url: '/user/v1/delete-account', payload: { password: 'victim-password' } },
      {
        method: 'POST',
        url: '/v7/user__has__public_key',
        payload: {
          user: victim,
          title: 'admin',
          public_key: sshKeyLine(),
        },
      },
      { method: 'POST', url: '/logout-others' },
    ] as const;
    for (const attempt of attempts) {
      const response = await app.inject({ ...attempt, headers: bearer(token) });
      expect(response.statusCode, `${attempt.method} ${attempt.url}: ${response.body}`).toBe(401);
    }
    expect(await state()).toEqual(before);
    // Renewing it with the user's password makes it no fresher.
    const renewed = await app.inject({
      method: 'POST',
      url: '/user/v1/refresh-token',
      headers: bearer(token),
      payload: { password: 'victim-password' },
    });
    expect(renewed.statusCode).toBe(200);
    const again = await app.inject({
      method: 'POST',
      url: '/api-key/user/full',
      headers: bearer(renewed.body),
      payload: { name: 'mine now' },
    });
    expect(again.statusCode).toBe(401);
    expect(decodeJwt(renewed.body)).toMatchObject({ actualUser: ids.root });
    expect(await state()).toEqual(before);
  });

  it('logs what it asks of /v7 at info, with the administrator, refused or not', async () => {
    await createAccount('helped');
    const admin = await login('root');
    const token = (await loginAs(admin, 'helped')).body;
    const before = logLines.length;
    const read = await app.inject({
      method: 'GET',
      url: `/v7/user(${idOf('helped')})?$select=username`,
      headers: bearer(token),
    });
    expect(read.statusCode, read.body).toBe(200);
    // An SSH key is the user's to add (shared/auth/session-kinds.ts): refused, and logged.
    const refused = await app.inject({
      method: 'POST',
      url: '/v7/user__has__public_key',
      headers: bearer(token),
      payload: { title: 'added by support', public_key: sshKeyLine(), user: idOf('helped') },
    });
    expect(refused.statusCode, refused.body).toBe(401);
    const lines = logLines
      .slice(before)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => typeof line.url === 'string' && line.url.startsWith('/v7/'));
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        method: 'GET',
        statusCode: 200,
        userId: idOf('helped'),
        actualUser: ids.root,
      }),
      expect.objectContaining({
        level: 30,
        method: 'POST',
        statusCode: 401,
        userId: idOf('helped'),
        actualUser: ids.root,
      }),
    ]);
  });
});
