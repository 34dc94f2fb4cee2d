import {
  signupClosedMessage,
  signupInvitationOnlyMessage,
} from '@flotilla/shared/auth/signup-mode';
import { invitationLifetimeDays } from '@flotilla/shared/constants/limits';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { SignupMode } from '@flotilla/shared/auth/signup-mode';
import type { Database } from '../../infra/db/database.js';
import { createOrganization } from '../../test-support/fixtures.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { registerConfigRoutes } from '../config/register-config-routes.js';
import { createInvitationSigner } from '../invitations/invitation-signing.js';
import { registerAuth } from './register-auth.js';

let db: Database;
const apps = new Map<SignupMode, { app: FastifyInstance; ctx: AppContext }>();
let organizationId: number;

const register = (mode: SignupMode, payload: Record<string, unknown>) => {
  const app = apps.get(mode)?.app;
  if (!app) throw new Error(`no app for ${mode}`);
  return app.inject({ method: 'POST', url: '/user/register', payload });
};

const mailCount = async (): Promise<number> =>
  (await db.query<{ n: number }>('SELECT count(*)::integer AS "n" FROM "mail_message"')).rows[0]
    ?.n ?? 0;

// A pending invitation of `email` to the organization, and its signed token.
const invitationFor = async (mode: SignupMode, email: string): Promise<string> => {
  const ctx = apps.get(mode)?.ctx;
  if (!ctx) throw new Error(`no context for ${mode}`);
  const { rows } = await db.query<{ token_id: string }>(
    `WITH e AS (INSERT INTO "invitee" ("email") VALUES ($1) RETURNING "id")
     INSERT INTO "invitee__is_invited_to__organization"
            ("invitee", "is_invited_to__organization", "organization_membership_role")
     SELECT e."id", $2, r."id" FROM e, "organization_membership_role" r WHERE r."name" = 'member'
     RETURNING "token_id"`,
    [email, organizationId],
  );
  const tokenId = rows[0]?.token_id;
  if (tokenId === undefined) throw new Error('no invitation');
  return createInvitationSigner(ctx.jwtSecret).sign({
    kind: 'organization',
    tokenId,
    name: 'Invites',
    email,
    exp: Math.floor(Date.now() / 1000) + invitationLifetimeDays * 86_400,
  });
};

beforeAll(async () => {
  db = await createTestDatabase();
  organizationId = await createOrganization(db, 'Invites');
  for (const mode of ['open', 'invitation', 'closed'] as const) {
    const ctx = createTestContext(db, { config: { signup: mode } });
    apps.set(mode, { app: await createTestApp(ctx, registerAuth, registerConfigRoutes), ctx });
  }
});

afterAll(async () => {
  for (const { app } of apps.values()) await app.close();
  await db.close();
});

// A refused sign-up is 401, as everything a caller may not do (error-codes.ts).
describe('FLOTILLA_SIGNUP', () => {
  it('closed: refuses every sign-up, with an invitation too, and mails nothing', async () => {
    const token = await invitationFor('closed', 'closed-invitee@example.com');
    const before = await mailCount();
    for (const payload of [
      { email: 'closed@example.com', password: 'long enough' },
      { email: 'closed-invitee@example.com', password: 'long enough', invitationToken: token },
    ]) {
      const response = await register('closed', payload);
      expect(response.statusCode).toBe(401);
      expect(response.body).toBe(signupClosedMessage);
    }
    expect(await mailCount()).toBe(before);
    const { rows } = await db.query('SELECT 1 FROM "user" WHERE "email" LIKE $1', ['closed%']);
    expect(rows).toEqual([]);
  });

  it('invitation: refuses a sign-up without a pending invitation for that e-mail', async () => {
    const plain = await register('invitation', {
      email: 'stranger@example.com',
      password: 'long enough',
    });
    expect(plain.statusCode).toBe(401);
    expect(plain.body).toBe(signupInvitationOnlyMessage);
    const token = await invitationFor('invitation', 'invited@example.com');
    const otherAddress = await register('invitation', {
      email: 'stranger@example.com',
      password: 'long enough',
      invitationToken: token,
    });
    expect(otherAddress.statusCode).toBe(400);
    expect(otherAddress.body).toMatch(/sent to someone else/);
    const forged = await register('invitation', {
      email: 'stranger@example.com',
      password: 'long enough',
      invitationToken: `${token.split('.')[0] ?? ''}.AAAA`,
    });
    expect(forged.statusCode).toBe(400);
    const { rows } = await db.query('SELECT 1 FROM "user" WHERE "email" = $1', [
      'stranger@example.com',
    ]);
    expect(rows).toEqual([]);
  });

  it('invitation: the invitee signs up with the token and joins', async () => {
    const token = await invitationFor('invitation', 'joiner@example.com');
    const response = await register('invitation', {
      email: 'joiner@example.com',
      password: 'long enough',
      invitationToken: token,
    });
    expect(response.statusCode).toBe(200);
    const { rows } = await db.query(
      `SELECT 1 FROM "organization_membership" m JOIN "user" u ON u."id" = m."user"
        WHERE u."email" = $1 AND m."is_member_of__organization" = $2`,
      ['joiner@example.com', organizationId],
    );
    expect(rows).toHaveLength(1);
  });

  it('open (the default): anyone signs up', async () => {
    const response = await register('open', {
      email: 'anyone@example.com',
      password: 'long enough',
    });
    expect(response.statusCode).toBe(200);
  });

  it('GET /config tells the console which applies', async () => {
    for (const mode of ['open', 'invitation', 'closed'] as const) {
      const response = await apps.get(mode)?.app.inject({ url: '/config' });
      expect(response?.json()).toMatchObject({ signup: mode });
    }
  });
});
