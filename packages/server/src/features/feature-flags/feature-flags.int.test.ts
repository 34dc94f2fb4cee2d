import type { AdminFeatureFlag, FeatureFlagValues } from '@flotilla/shared/feature-flags/flags';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import { addOrganizationMember, createOrganization } from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { bearer, signedInUser } from '../../test-support/user-sessions.js';

// Flags stored in the database, set by platform administrators for everyone, one organization or
// one user, and read back (through the OpenFeature client) by whoever asks.

let db: Database;
let app: FastifyInstance;
let admin: string;
let alice: { id: number; token: string };
let bob: { id: number; token: string };
let acme: number;
let other: number;

beforeAll(async () => {
  db = await createTestDatabase();
  app = buildServer(createTestContext(db));
  await app.ready();
  admin = (await signedInUser(db, app, 'flag-admin', 'balena_admin')).token;
  alice = await signedInUser(db, app, 'alice');
  bob = await signedInUser(db, app, 'bob');
  acme = await createOrganization(db, 'acme');
  other = await createOrganization(db, 'other');
  await addOrganizationMember(db, alice.id, acme, 'member');
  await addOrganizationMember(db, bob.id, other, 'member');
});
afterAll(async () => {
  await app.close();
  await db.close();
});

const valuesOf = async (token?: string, query = ''): Promise<FeatureFlagValues> => {
  const response = await app.inject({
    url: `/feature-flags/v1${query}`,
    headers: token ? bearer(token) : {},
  });
  expect(response.statusCode).toBe(200);
  return response.json<FeatureFlagValues>();
};
const set = (payload: object) =>
  app.inject({
    method: 'POST',
    url: '/admin/v1/feature-flags/apps/settings',
    headers: bearer(admin),
    payload,
  });

describe('feature flags', () => {
  it('take their declared default while nobody set them', async () => {
    expect(await valuesOf()).toEqual({ apps: false });
    expect(await valuesOf(alice.token)).toEqual({ apps: false });
  });

  it('apply to the members of one organization only', async () => {
    expect(
      (await set({ scope: 'organization', organization: 'acme', enabled: true })).statusCode,
    ).toBe(200);
    expect(await valuesOf(alice.token)).toEqual({ apps: true });
    expect(await valuesOf(alice.token, `?organization=${acme}`)).toEqual({ apps: true });
    expect(await valuesOf(bob.token)).toEqual({ apps: false });
    // Naming an organization one is not a member of does not borrow its setting.
    expect(await valuesOf(bob.token, `?organization=${acme}`)).toEqual({ apps: false });
    expect(await valuesOf()).toEqual({ apps: false });
  });

  it('apply to one user, over their organization', async () => {
    await set({ scope: 'user', username: 'alice', enabled: false });
    await set({ scope: 'user', username: 'bob', enabled: true });
    expect(await valuesOf(alice.token)).toEqual({ apps: false });
    expect(await valuesOf(bob.token)).toEqual({ apps: true });
  });

  it('apply globally, under organizations and users, and reach guests', async () => {
    await set({ scope: 'global', enabled: true });
    expect(await valuesOf()).toEqual({ apps: true });
    expect(await valuesOf(alice.token)).toEqual({ apps: false });
  });

  it('are listed with their settings, which can be removed', async () => {
    const list = await app.inject({ url: '/admin/v1/feature-flags', headers: bearer(admin) });
    const [apps] = list.json<{ flags: AdminFeatureFlag[] }>().flags;
    expect(apps?.key).toBe('apps');
    expect(apps?.settings.map((setting) => setting.scope)).toEqual([
      'global',
      'organization',
      'user',
      'user',
    ]);
    expect(apps?.settings[1]?.organization).toEqual({ id: acme, handle: 'acme' });
    const aliceSetting = apps?.settings.find((setting) => setting.user?.username === 'alice');
    const removed = await app.inject({
      method: 'DELETE',
      url: `/admin/v1/feature-flags/settings/${aliceSetting?.id}`,
      headers: bearer(admin),
    });
    expect(removed.statusCode).toBe(204);
    expect(await valuesOf(alice.token)).toEqual({ apps: true });
    // Setting the same scope again replaces it instead of adding a row.
    await set({ scope: 'organization', organization: 'acme', enabled: false });
    await set({ scope: 'organization', organization: 'ACME', enabled: false });
    const { rows } = await db.query(
      `SELECT 1 FROM "feature_flag_setting" WHERE "organization" = $1`,
      [acme],
    );
    expect(rows).toHaveLength(1);
    expect(await valuesOf(alice.token)).toEqual({ apps: false });
    expect(other).toBeGreaterThan(0);
  });

  it('refuse unknown flags, scopes, organizations and users with a clear 4xx', async () => {
    const unknownFlag = await app.inject({
      method: 'POST',
      url: '/admin/v1/feature-flags/nope/settings',
      headers: bearer(admin),
      payload: { scope: 'global', enabled: true },
    });
    expect(unknownFlag.statusCode).toBe(404);
    expect(unknownFlag.body).toContain('No feature flag nope');
    const badScope = await set({ scope: 'team', enabled: true });
    expect(badScope.statusCode).toBe(400);
    expect(badScope.body).toContain('Scope must be global, organization or user');
    const noOrg = await set({ scope: 'organization', organization: 'ghost', enabled: true });
    expect(noOrg.statusCode).toBe(400);
    expect(noOrg.body).toContain('No organization ghost');
    const noUser = await set({ scope: 'user', username: 'ghost', enabled: true });
    expect(noUser.statusCode).toBe(400);
    expect(noUser.body).toContain('No user ghost');
  });

  it('are set by platform administrators only', async () => {
    const before = await db.query('SELECT * FROM "feature_flag_setting" ORDER BY "id"');
    const refused = await app.inject({
      method: 'POST',
      url: '/admin/v1/feature-flags/apps/settings',
      headers: bearer(alice.token),
      payload: { scope: 'user', username: 'alice', enabled: true },
    });
    expect(refused.statusCode).toBe(401);
    const listed = await app.inject({ url: '/admin/v1/feature-flags', headers: bearer(bob.token) });
    expect(listed.statusCode).toBe(401);
    expect((await db.query('SELECT * FROM "feature_flag_setting" ORDER BY "id"')).rows).toEqual(
      before.rows,
    );
  });
});
