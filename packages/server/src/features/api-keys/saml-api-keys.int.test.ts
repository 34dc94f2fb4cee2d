import { freshAuthenticationRequiredMessage } from '@flotilla/shared/auth/reauthentication';
import { samlApiKeyRefusal } from '@flotilla/shared/auth/saml-accounts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { registerODataRoutes } from '../../infra/odata/register-odata-routes.js';
import {
  addOrganizationMember,
  createDevice,
  createFleet,
  createOrganization,
  createUser,
  type DeviceFixture,
  type FleetFixture,
  type UserFixture,
} from '../../test-support/fixtures.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import { registerAuth } from '../auth/register-auth.js';
import { registerApiKeys } from './register-api-keys.js';

// Creating API keys is disabled for SAML accounts. A user with a
// saml_account row (written here directly: SAML sign-in creates them, a later feature) gets no
// user key by any route; fleet and device keys stay theirs to mint.
let db: Database;
let app: FastifyInstance;
let saml: UserFixture;
let plain: UserFixture;
let fleet: FleetFixture;
let device: DeviceFixture;
let clock: Date;
const tokens = new Map<number, string>();

const sessionOf = (user: UserFixture): string => {
  const token = tokens.get(user.userId);
  if (!token) throw new Error(`no session for ${user.username}`);
  return token;
};

const post = (url: string, user: UserFixture, payload: Record<string, unknown>) =>
  app.inject({
    method: 'POST',
    url,
    payload,
    headers: { authorization: `Bearer ${sessionOf(user)}` },
  });

const keysOf = async (actorId: number): Promise<number> => {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::integer AS "n" FROM "api_key" WHERE "is_of__actor" = $1',
    [actorId],
  );
  return rows[0]?.n ?? -1;
};

const userKeyBody = (user: UserFixture) => ({
  actorType: 'user',
  actorTypeId: user.userId,
  roles: ['named-user-api-key'],
  name: 'ci',
});

beforeAll(async () => {
  db = await createTestDatabase();
  clock = new Date('2026-03-01T12:00:00Z');
  const ctx = createTestContext(db, { now: () => clock });
  app = await createTestApp(ctx, registerAuth, registerApiKeys, registerODataRoutes);
  saml = await createUser(db, 'saml-user');
  plain = await createUser(db, 'plain-user');
  const organization = await createOrganization(db, 'acme');
  await addOrganizationMember(db, saml.userId, organization, 'administrator');
  await addOrganizationMember(db, plain.userId, organization, 'administrator');
  fleet = await createFleet(db, organization, 'fleet');
  device = await createDevice(db, fleet.id, 'dev-1');
  await db.query(
    `WITH idp AS (
       INSERT INTO "identity_provider" ("sso_identifier", "entry_point", "issuer", "certificate")
       VALUES ('acme-sso', 'https://idp.example.com/sso', 'acme', 'CERT') RETURNING "id")
     INSERT INTO "saml_account" ("belongs_to__user", "was_generated_by__identity_provider", "remote_id")
     SELECT $1, "id", 'saml-user@acme' FROM idp`,
    [saml.userId],
  );
  for (const user of [saml, plain]) {
    tokens.set(user.userId, await issueSessionToken(ctx, db, user.userId));
  }
});

afterAll(async () => {
  await app.close();
  await db.close();
});

describe('user API keys for SAML accounts', () => {
  it('are refused through POST /api-key/user/full, with the reason, and allowed otherwise', async () => {
    const refused = await post('/api-key/user/full', saml, { name: 'ci' });
    // A forbidden action answers 401 (wire contract), with our reason as its text.
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toBe(samlApiKeyRefusal);
    expect(await keysOf(saml.actorId)).toBe(0);
    expect((await post('/api-key/user/full', plain, { name: 'ci' })).statusCode).toBe(200);
    expect(await keysOf(plain.actorId)).toBe(1);
  });

  it('are refused through POST /api-key/v2 with actorType user, and allowed otherwise', async () => {
    const refused = await post('/api-key/v2/', saml, userKeyBody(saml));
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toBe(samlApiKeyRefusal);
    const alsoV1 = await post('/api-key/v1', saml, userKeyBody(saml));
    expect(alsoV1.body).toBe(samlApiKeyRefusal);
    expect(await keysOf(saml.actorId)).toBe(0);
    const before = await keysOf(plain.actorId);
    expect((await post('/api-key/v2/', plain, userKeyBody(plain))).statusCode).toBe(200);
    expect(await keysOf(plain.actorId)).toBe(before + 1);
  });

  // A guard rather than the rule: /v7 mints no key for anyone (is_of__actor is read-only), so a
  // later change that opened it would have to apply the rule there too.
  it('cannot be created through /v7 either (keys are minted by /api-key/* only)', async () => {
    const response = await post('/v7/api_key', saml, { name: 'ci', is_of__actor: saml.actorId });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(await keysOf(saml.actorId)).toBe(0);
  });

  it('leave provisioning and device keys alone', async () => {
    const provisioning = await post(`/api-key/application/${fleet.id}/provisioning`, saml, {});
    expect(provisioning.statusCode).toBe(200);
    const viaV2 = await post('/api-key/v2/', saml, {
      actorType: 'application',
      actorTypeId: fleet.id,
      roles: ['provisioning-api-key'],
    });
    expect(viaV2.statusCode).toBe(200);
    expect(await keysOf(fleet.actorId)).toBe(2);
    const deviceKey = await post(`/api-key/device/${device.id}/device-key`, saml, {});
    expect(deviceKey.statusCode).toBe(200);
    expect(await keysOf(device.actorId)).toBe(1);
  });

  // Runs last: it moves the clock past the re-authentication window.
  it('are refused before the password is asked for: confirming it would not help', async () => {
    clock = new Date(clock.getTime() + 60 * 60 * 1000);
    expect((await post('/api-key/user/full', saml, { name: 'late' })).body).toBe(samlApiKeyRefusal);
    expect((await post('/api-key/user/full', plain, { name: 'late' })).body).toBe(
      freshAuthenticationRequiredMessage,
    );
  });
});
