import type { ErrorReport } from '@flotilla/shared/error-reports/error-reports';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { bearer, signedInUser } from '../../test-support/user-sessions.js';
import { errorReportsPerAddressPerMinute } from './register-error-reports.js';
import { maxStoredErrors } from './error-store.js';

// Errors of the console (posted) and of the server (its 500s), grouped with counts and first and
// last seen, scrubbed of secrets and bounded.

let db: Database;
let app: FastifyInstance;
let clock = new Date('2026-11-30T10:00:00Z');
let admin: string;
// Resolves when the server error of the current request has been written.
let written: Promise<void> = Promise.resolve();

beforeAll(async () => {
  db = await createTestDatabase();
  app = buildServer(createTestContext(db, { now: () => clock }));
  // A route that fails as a bug would (test only).
  app.get('/test/boom/:id', { config: { access: 'public' } }, async () => {
    throw new Error('Cannot read properties of undefined (reading "id")');
  });
  await app.ready();
  admin = (await signedInUser(db, app, 'errors-admin', 'balena_admin')).token;
});
afterAll(async () => {
  await app.close();
  await db.close();
});

const report = (payload: object, address = '198.51.100.1') =>
  app.inject({ method: 'POST', url: '/error-reports/v1', payload, remoteAddress: address });
const listed = async (source: string): Promise<ErrorReport[]> =>
  (
    await app.inject({ url: `/admin/v1/error-reports?source=${source}`, headers: bearer(admin) })
  ).json<{ errors: ErrorReport[] }>().errors;
// Waits for the stored count of server errors to reach n (written after the response).
const serverErrorsCounted = async (n: number): Promise<void> => {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const { rows } = await db.query<{ total: string | null }>(
      `SELECT sum("count")::text AS "total" FROM "error_report" WHERE "source" = 'server'`,
    );
    if (Number(rows[0]?.total ?? 0) >= n) return;
    await written;
    written = new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`server errors never reached ${n}`);
};

describe('console error reports', () => {
  it('are grouped with counts, first and last seen, release and request id', async () => {
    const first = await report({
      name: 'TypeError',
      message: 'x is undefined in fleet 12',
      stack: 'TypeError: x is undefined\n    at FleetPage (/assets/fleet-abc.js:1:200)',
      location: '/fleets/:fleetId',
      release: '0.1.0',
      requestId: 'req-7',
    });
    expect(first.statusCode).toBe(204);
    clock = new Date('2026-11-30T11:00:00Z');
    await report({
      name: 'TypeError',
      message: 'x is undefined in fleet 99',
      stack: 'TypeError: x is undefined\n    at FleetPage (/assets/fleet-abc.js:1:200)',
      location: '/fleets/:fleetId',
      release: '0.1.0',
    });
    const [group, ...rest] = await listed('console');
    expect(rest).toEqual([]);
    expect(group).toMatchObject({
      source: 'console',
      name: 'TypeError',
      message: 'x is undefined in fleet 99',
      count: 2,
      release: '0.1.0',
      lastRequestId: 'req-7',
      firstSeenAt: '2026-11-30T10:00:00.000Z',
      lastSeenAt: '2026-11-30T11:00:00.000Z',
    });
  });

  it('keep no secrets', async () => {
    await report({
      message:
        'Failed: Bearer abc.def-ghi for https://x.example/v7/a?apikey=SECRET1 by me@example.com',
      stack: 'token=SECRET2 eyJhbGciOiJIUzI1NiJ9.eyJpZCI6MX0.c2lnbmF0dXJl',
    });
    const stored = JSON.stringify((await db.query('SELECT * FROM "error_report"')).rows);
    for (const secret of ['abc.def-ghi', 'SECRET1', 'SECRET2', 'eyJhbGci', 'me@example.com']) {
      expect(stored).not.toContain(secret);
    }
  });

  it('are refused when too big or malformed, and limited per address', async () => {
    const before = (await db.query('SELECT 1 FROM "error_report"')).rowCount;
    // Over the route's body limit: refused before parsing (the API answers 400 for that).
    const big = await report({ message: 'too big', stack: 'y'.repeat(20_000) });
    expect(big.statusCode).toBe(400);
    expect(big.body).toContain('Request body larger than');
    expect((await db.query('SELECT 1 FROM "error_report"')).rowCount).toBe(before);
    const empty = await report({ message: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Message is required');
    for (let index = 0; index < errorReportsPerAddressPerMinute; index += 1) {
      expect((await report({ message: `flood ${index}` }, '203.0.113.5')).statusCode).toBe(204);
    }
    expect((await report({ message: 'one more' }, '203.0.113.5')).statusCode).toBe(429);
    // The flood's numbers differ only: one group.
    const flood = (await listed('console')).filter((error) => error.message.startsWith('flood'));
    expect(flood.map((error) => error.count)).toEqual([errorReportsPerAddressPerMinute]);
  });

  it('keep at most a bounded number of groups, dropping the least recently seen', async () => {
    await db.query(
      `INSERT INTO "error_report" ("source", "fingerprint", "name", "message", "first_seen_at",
         "last_seen_at")
       SELECT 'console', 'old-' || n, 'Error', 'old', '2020-01-01', '2020-01-01'
         FROM generate_series(1, $1) n`,
      [maxStoredErrors],
    );
    await report({ message: 'a brand new one' }, '198.51.100.77');
    const { rows } = await db.query<{ n: number; old: number }>(
      `SELECT count(*)::integer AS "n", count(*) FILTER (WHERE "message" = 'old')::integer AS "old"
         FROM "error_report"`,
    );
    expect(rows[0]?.n).toBe(maxStoredErrors);
    expect(rows[0]?.old).toBeLessThan(maxStoredErrors);
    expect((await listed('console')).some((error) => error.message === 'a brand new one')).toBe(
      true,
    );
  });
});

describe('server errors', () => {
  it('are counted per fault with the route and the request id, not the client errors', async () => {
    const boom = await app.inject({ url: '/test/boom/1' });
    expect(boom.statusCode).toBe(500);
    expect((await app.inject({ url: '/test/boom/2' })).statusCode).toBe(500);
    expect((await report({ message: '' })).statusCode).toBe(400);
    await serverErrorsCounted(2);
    const [group, ...rest] = await listed('server');
    expect(rest).toEqual([]);
    expect(group).toMatchObject({
      source: 'server',
      name: 'Error',
      location: 'GET /test/boom/:id',
      count: 2,
    });
    expect(group?.lastRequestId).toMatch(/\S/);
  });

  it('are shown to platform administrators only', async () => {
    const member = await signedInUser(db, app, 'errors-member');
    const refused = await app.inject({
      url: '/admin/v1/error-reports',
      headers: bearer(member.token),
    });
    expect(refused.statusCode).toBe(401);
  });
});
