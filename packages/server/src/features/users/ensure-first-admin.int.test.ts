import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import { createActorResolver } from '../../infra/auth/resolve-actor.js';
import type { Database } from '../../infra/db/database.js';
import { createUser } from '../../test-support/fixtures.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { registerAuth } from '../auth/register-auth.js';
import { ensureFirstAdmin } from './ensure-first-admin.js';

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

describe('ensureFirstAdmin', () => {
  it('creates admin@flotilla.local with a generated password, returned once', async () => {
    const lines: string[] = [];
    const outcome = await ensureFirstAdmin(
      db,
      { adminEmail: undefined, adminPassword: undefined },
      (line) => lines.push(line),
    );
    expect(outcome).toMatchObject({
      kind: 'created',
      email: 'admin@flotilla.local',
      username: 'admin',
    });
    const password = outcome.kind === 'created' ? outcome.generatedPassword : undefined;
    expect(password).toMatch(/^[0-9A-Za-z]{22}$/);
    // The start banner shows it; nothing else prints it.
    expect(lines.join('\n')).not.toContain(password);

    const response = await login('admin@flotilla.local', password ?? '');
    expect(response.statusCode).toBe(200);
    expect(decodeJwt(response.body).permissions).toEqual(['admin.home']);
    const actor = await createActorResolver(ctx)(response.body);
    expect(actor).toMatchObject({ kind: 'user', platformPermissions: ['admin.home'] });

    const { rows } = await db.query(
      `SELECT o."handle" FROM "organization" o
         JOIN "organization_membership" m ON m."is_member_of__organization" = o."id"
         JOIN "user" u ON u."id" = m."user" WHERE u."email" = 'admin@flotilla.local'`,
    );
    expect(rows).toEqual([{ handle: 'admin' }]);

    const again: string[] = [];
    expect(
      await ensureFirstAdmin(db, { adminEmail: undefined, adminPassword: undefined }, (line) =>
        again.push(line),
      ),
    ).toEqual({ kind: 'existing', email: 'admin@flotilla.local' });
    expect(again).toEqual([]);
  });

  it('uses FLOTILLA_ADMIN_EMAIL and FLOTILLA_ADMIN_PASSWORD without printing the password', async () => {
    const lines: string[] = [];
    const outcome = await ensureFirstAdmin(
      db,
      { adminEmail: 'root@example.com', adminPassword: 'configured-secret' },
      (line) => lines.push(line),
    );
    expect(lines.join('\n')).not.toContain('configured-secret');
    expect(outcome).toMatchObject({ kind: 'created', generatedPassword: undefined });
    expect((await login('root@example.com', 'configured-secret')).statusCode).toBe(200);
  });

  it('promotes an existing user with that e-mail', async () => {
    const user = await createUser(db, 'boss');
    const outcome = await ensureFirstAdmin(
      db,
      { adminEmail: 'boss@example.com', adminPassword: undefined },
      () => undefined,
    );
    expect(outcome).toEqual({ kind: 'promoted', email: 'boss@example.com' });
    const { rows } = await db.query('SELECT "role" FROM "user_platform_role" WHERE "user" = $1', [
      user.userId,
    ]);
    expect(rows).toEqual([{ role: 'balena_admin' }]);
  });

  it('creates only one admin when servers start together', async () => {
    const outcomes = await Promise.all(
      [1, 2, 3].map(() =>
        ensureFirstAdmin(
          db,
          { adminEmail: undefined, adminPassword: 'same-password' },
          () => undefined,
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.kind === 'created')).toHaveLength(1);
    const { rows } = await db.query('SELECT count(*)::int AS "n" FROM "user_platform_role"');
    expect(rows).toEqual([{ n: 1 }]);
  });
});
