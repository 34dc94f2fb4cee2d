import type { UsageSummary } from '@flotilla/shared/analytics/usage';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { bearer, signedInUser } from '../../test-support/user-sessions.js';
import { usagePostsPerAddressPerMinute } from './register-analytics.js';

// First-party usage counts: per day, kind and name, nothing about who.

let db: Database;
let app: FastifyInstance;
let clock = new Date('2026-11-30T10:00:00Z');
let admin: string;

beforeAll(async () => {
  db = await createTestDatabase();
  app = buildServer(
    createTestContext(db, { now: () => clock, config: { analytics: 'first-party' } }),
  );
  await app.ready();
  admin = (await signedInUser(db, app, 'usage-admin', 'balena_admin')).token;
});
afterAll(async () => {
  await app.close();
  await db.close();
});

const post = (payload: object, address = '198.51.100.1') =>
  app.inject({ method: 'POST', url: '/analytics/v1/events', payload, remoteAddress: address });
const summary = async (days = 30): Promise<UsageSummary> =>
  (await app.inject({ url: `/admin/v1/usage?days=${days}`, headers: bearer(admin) })).json();

describe('usage counting', () => {
  it('counts page views and feature uses per day, storing no one', async () => {
    const sent = await post({
      events: [
        { kind: 'page', name: '/fleets/:fleetId' },
        { kind: 'page', name: '/fleets/:fleetId' },
        { kind: 'feature', name: 'create-fleet' },
      ],
    });
    expect(sent.statusCode).toBe(204);
    clock = new Date('2026-12-01T09:00:00Z');
    await post({ events: [{ kind: 'page', name: '/fleets/:fleetId' }] });
    expect((await summary()).rows).toEqual([
      { kind: 'page', name: '/fleets/:fleetId', count: 3 },
      { kind: 'feature', name: 'create-fleet', count: 1 },
    ]);
    // Only today's counts within one day.
    expect((await summary(1)).rows).toEqual([{ kind: 'page', name: '/fleets/:fleetId', count: 1 }]);
    const { rows } = await db.query('SELECT * FROM "usage_count" ORDER BY "day", "name"');
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(['count', 'day', 'kind', 'name']);
  });

  it('refuses addresses with ids or queries, unknown kinds and oversized batches', async () => {
    const concrete = await post({ events: [{ kind: 'page', name: '/fleets/1?token=abc' }] });
    expect(concrete.statusCode).toBe(400);
    expect(concrete.body).toContain('Name must be a route pattern or a feature name');
    expect((await post({ events: [{ kind: 'click', name: 'x' }] })).statusCode).toBe(400);
    const many = Array.from({ length: 21 }, () => ({ kind: 'page', name: '/' }));
    expect((await post({ events: many })).statusCode).toBe(400);
  });

  it('limits how often one address posts', async () => {
    for (let index = 0; index < usagePostsPerAddressPerMinute; index += 1) {
      expect(
        (await post({ events: [{ kind: 'page', name: '/' }] }, '203.0.113.9')).statusCode,
      ).toBe(204);
    }
    expect((await post({ events: [{ kind: 'page', name: '/' }] }, '203.0.113.9')).statusCode).toBe(
      429,
    );
  });

  it('counts nothing on a server where analytics is off (the default)', async () => {
    const off = buildServer(createTestContext(db));
    await off.ready();
    try {
      const before = (await db.query('SELECT sum("count") FROM "usage_count"')).rows;
      const refused = await off.inject({
        method: 'POST',
        url: '/analytics/v1/events',
        payload: { events: [{ kind: 'page', name: '/' }] },
      });
      expect(refused.statusCode).toBe(404);
      expect(refused.body).toBe('Analytics is off on this server');
      expect((await off.inject({ url: '/config' })).json()).toMatchObject({ analytics: null });
      expect((await app.inject({ url: '/config' })).json()).toMatchObject({
        analytics: 'first-party',
      });
      expect((await db.query('SELECT sum("count") FROM "usage_count"')).rows).toEqual(before);
    } finally {
      await off.close();
    }
  });

  it('shows the totals to platform administrators only', async () => {
    const member = await signedInUser(db, app, 'usage-member');
    expect(
      (await app.inject({ url: '/admin/v1/usage', headers: bearer(member.token) })).statusCode,
    ).toBe(401);
    expect((await app.inject({ url: '/admin/v1/usage' })).statusCode).toBe(401);
  });
});
