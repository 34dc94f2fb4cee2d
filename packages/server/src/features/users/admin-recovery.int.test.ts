import { spawn } from 'node:child_process';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import { createActorResolver } from '../../infra/auth/resolve-actor.js';
import type { Database } from '../../infra/db/database.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { registerAuth } from '../auth/register-auth.js';
import { storePendingSecret, acceptStep } from '../two-factor/two-factor-store.js';
import { createPlatformAdministrator, resetUserPassword } from './admin-recovery.js';

let db: Database;
let ctx: AppContext;
let app: FastifyInstance;

beforeAll(async () => {
  db = await createTestDatabase();
  ctx = createTestContext(db);
  app = await createTestApp(ctx, registerAuth);
});

afterEach(async () => {
  await db.query('DELETE FROM "user_platform_role"');
  await db.query('DELETE FROM "organization_membership"');
  await db.query('DELETE FROM "user"');
  await db.query('DELETE FROM "organization"');
});

afterAll(async () => {
  await app.close();
  await db.close();
});

const login = (username: string, password: string) =>
  app.inject({ method: 'POST', url: '/login_', payload: { username, password } });

const twoFactorRows = async (): Promise<number> => {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS "n" FROM "user_two_factor"',
  );
  return rows[0]?.n ?? -1;
};

describe('account recovery from the server machine', () => {
  it('creates a platform administrator with a generated password that signs in', async () => {
    const result = await createPlatformAdministrator(db, { email: 'ops@example.com' });
    expect(result).toMatchObject({ username: 'ops', isPlatformAdministrator: true });
    expect(result.generatedPassword).toMatch(/^[0-9A-Za-z]{22}$/);
    const response = await login('ops@example.com', result.generatedPassword ?? '');
    expect(response.statusCode).toBe(200);
    expect(decodeJwt(response.body).permissions).toEqual(['admin.home']);
  });

  it('promotes an existing user without touching their password unless one is given', async () => {
    const first = await createPlatformAdministrator(db, {
      email: 'jane@example.com',
      password: 'first-password-1',
    });
    expect(first.generatedPassword).toBeUndefined();
    await db.query('DELETE FROM "user_platform_role"');
    const again = await createPlatformAdministrator(db, { email: 'JANE@example.com' });
    expect(again.summary).toBe('jane is now a platform administrator');
    expect(again.generatedPassword).toBeUndefined();
    expect((await login('jane@example.com', 'first-password-1')).statusCode).toBe(200);
    const repeat = await createPlatformAdministrator(db, { email: 'jane@example.com' });
    expect(repeat.summary).toBe('jane already was a platform administrator');
  });

  it('resets a lost password by username, ending every session, and can clear two-factor', async () => {
    await createPlatformAdministrator(db, {
      email: 'lost@example.com',
      password: 'old-password-1',
    });
    const before = await login('lost@example.com', 'old-password-1');
    const { rows } = await db.query<{ id: number }>(
      `SELECT "id" FROM "user" WHERE "username" = 'lost'`,
    );
    const userId = rows[0]?.id ?? 0;
    await storePendingSecret(db, userId, 'JBSWY3DPEHPK3PXP');
    await acceptStep(db, userId, 1, new Date());
    const oldToken = before.body;
    const resolve = createActorResolver(ctx);
    expect(await resolve(oldToken)).toMatchObject({ kind: 'user' });

    const result = await resetUserPassword(db, { who: 'lost', clearTwoFactor: true });
    expect(result.summary).toContain('two-factor authentication is off');
    expect(result.isPlatformAdministrator).toBe(true);
    expect(await twoFactorRows()).toBe(0);
    expect((await login('lost@example.com', 'old-password-1')).statusCode).toBe(401);
    expect((await login('lost', result.generatedPassword ?? '')).statusCode).toBe(200);
    // The old session is signed with the secret the reset replaced.
    await expect(createActorResolver(createTestContext(db))(oldToken)).rejects.toThrow();
  });

  it('refuses an unknown user, a bad e-mail and a password the rules refuse, writing nothing', async () => {
    await expect(resetUserPassword(db, { who: 'nobody', clearTwoFactor: false })).rejects.toThrow(
      'No user has the e-mail or username nobody',
    );
    await expect(createPlatformAdministrator(db, { email: 'not-an-email' })).rejects.toThrow(
      'The e-mail is refused',
    );
    await expect(
      createPlatformAdministrator(db, { email: 'short@example.com', password: 'x' }),
    ).rejects.toThrow('The password is refused');
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS "n" FROM "user"');
    expect(rows[0]?.n).toBe(0);
  });
});

// The command as an operator runs it: `npm run admin -- ...` on the configured installation.
const runAdminCommand = (args: string[], stdin: string) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--conditions=source',
        path.join(import.meta.dirname, '../../admin-main.ts'),
        ...args,
      ],
      { env: { ...process.env, DATABASE_URL: db.url }, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });

describe('the admin command', () => {
  it('creates an administrator with a password from stdin, then says what is wrong', async () => {
    const created = await runAdminCommand(
      ['create-admin', 'root@example.com', '--password-stdin'],
      'typed-password-1\n',
    );
    expect(created).toMatchObject({ code: 0 });
    expect(created.stdout).toContain('Platform administrator root created');
    expect(created.stdout).not.toContain('typed-password-1');
    expect((await login('root@example.com', 'typed-password-1')).statusCode).toBe(200);

    const unknown = await runAdminCommand(['reset-password', 'ghost'], '');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No user has the e-mail or username ghost');
    const wrong = await runAdminCommand(['frobnicate'], '');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('usage: reset-password');
  });
});
