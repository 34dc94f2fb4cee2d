import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { type PlausibleFake, startPlausibleFake } from '../../test-support/plausible-fake.js';

// With Plausible configured, what the console counts is stored here and also sent there.

let db: Database;
let app: FastifyInstance;
let plausible: PlausibleFake;

beforeAll(async () => {
  db = await createTestDatabase();
  plausible = await startPlausibleFake();
  app = buildServer(
    createTestContext(db, {
      config: {
        analytics: 'first-party',
        plausible: { url: plausible.url, domain: 'fleet.example.org' },
      },
    }),
  );
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await plausible.close();
  await db.close();
});

describe('usage sent to Plausible', () => {
  it('stores the counts and sends each use to Plausible with the browser agent only', async () => {
    const sent = await app.inject({
      method: 'POST',
      url: '/analytics/v1/events',
      payload: { events: [{ kind: 'page', name: '/fleets/:fleetId' }] },
      headers: { 'user-agent': 'Mozilla/5.0 Firefox/133.0' },
      remoteAddress: '198.51.100.7',
    });
    expect(sent.statusCode).toBe(204);
    await plausible.waitFor(1);
    expect(plausible.received[0]?.body).toEqual({
      name: 'pageview',
      url: 'https://fleet.example.org/fleets/:fleetId',
      domain: 'fleet.example.org',
    });
    expect(plausible.received[0]?.headers['user-agent']).toBe('Mozilla/5.0 Firefox/133.0');
    expect(JSON.stringify(plausible.received[0]?.headers)).not.toContain('198.51.100.7');
    const { rows } = await db.query<{ count: number }>('SELECT "count" FROM "usage_count"');
    expect(rows).toEqual([{ count: 1 }]);
  });

  it('sends nothing the server refused', async () => {
    const refused = await app.inject({
      method: 'POST',
      url: '/analytics/v1/events',
      payload: { events: [{ kind: 'page', name: '/fleets/1?token=abc' }] },
    });
    expect(refused.statusCode).toBe(400);
    await app.inject({
      method: 'POST',
      url: '/analytics/v1/events',
      payload: { events: [{ kind: 'feature', name: 'create-fleet' }] },
    });
    await plausible.waitFor(2);
    expect(plausible.received.map((event) => event.body)).toEqual([
      expect.objectContaining({ name: 'pageview' }),
      expect.objectContaining({ name: 'create-fleet' }),
    ]);
  });
});
