import type { StatusAnswer } from '@flotilla/shared/status/status';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { startTcpProxy, type TcpProxy } from '../../test-support/tcp-proxy.js';
import { bearer, signedInUser } from '../../test-support/user-sessions.js';
import { statusCacheMs } from './status-service.js';

// The built-in status page on a real database: components from the server's own health, the
// notices administrators post, the short cache, and an answer while the database is away.

let direct: Database;
let proxy: TcpProxy;
let served: Database;
let app: FastifyInstance;
let clock = new Date('2026-11-30T10:00:00Z');
let admin: string;

beforeAll(async () => {
  direct = await createTestDatabase();
  // The server reaches PostgreSQL through a proxy the test can cut (a database outage).
  proxy = await startTcpProxy(direct.url);
  served = openDatabase(proxy.via(direct.url), { max: 5, connectTimeoutMs: 1_000 });
  app = buildServer(
    createTestContext(served, {
      now: () => clock,
      config: { statusPageUrl: null },
    }),
  );
  await app.ready();
  admin = (await signedInUser(direct, app, 'status-admin', 'balena_admin')).token;
});

afterAll(async () => {
  await app?.close();
  await served?.close();
  await proxy?.close();
  await direct?.close();
});

const statusNow = async (): Promise<StatusAnswer> => {
  const response = await app.inject({ url: '/status/v1' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['cache-control']).toBe('no-store');
  return response.json<StatusAnswer>();
};
const later = (): void => {
  clock = new Date(clock.getTime() + statusCacheMs);
};
const componentStatus = (answer: StatusAnswer, id: string) =>
  answer.components.find((component) => component.id === id)?.status;

describe('GET /status/v1', () => {
  it('lists every component, probed from the server itself, to anyone', async () => {
    const answer = await statusNow();
    expect(answer.components.map((component) => component.id)).toEqual([
      'api',
      'database',
      'device-links',
      'builder',
      'registry',
      'mail',
    ]);
    expect(componentStatus(answer, 'api')).toBe('operational');
    expect(componentStatus(answer, 'database')).toBe('operational');
    expect(componentStatus(answer, 'mail')).toBe('operational');
    // No registry is configured in tests: said, not guessed.
    expect(componentStatus(answer, 'registry')).toBe('unknown');
    expect(answer.notices).toEqual([]);
    expect(answer.externalUrl).toBeNull();
    expect(answer.status).toBe('operational');
  });

  it('shows an incident a platform administrator posts, until it is resolved', async () => {
    const posted = await app.inject({
      method: 'POST',
      url: '/admin/v1/status/notices',
      headers: bearer(admin),
      payload: {
        kind: 'incident',
        severity: 'major',
        title: 'Builds are slow',
        message: 'Looking',
      },
    });
    expect(posted.statusCode).toBe(201);
    const id = posted.json<{ id: number }>().id;
    // Posting forgets the cached answer at once.
    const during = await statusNow();
    expect(during.notices?.map((notice) => notice.title)).toEqual(['Builds are slow']);
    expect(during.status).toBe('outage');

    const resolved = await app.inject({
      method: 'PATCH',
      url: `/admin/v1/status/notices/${id}`,
      headers: bearer(admin),
      payload: { resolved: true },
    });
    expect(resolved.statusCode).toBe(200);
    const after = await statusNow();
    expect(after.notices).toEqual([]);
    expect(after.status).toBe('operational');
    // Still in the administrators' list, resolved.
    const list = await app.inject({ url: '/admin/v1/status/notices', headers: bearer(admin) });
    expect(list.json<{ notices: { id: number; resolvedAt: string | null }[] }>().notices).toEqual([
      expect.objectContaining({ id, resolvedAt: clock.toISOString() }),
    ]);
  });

  it('says maintenance when only a maintenance notice is open', async () => {
    await app.inject({
      method: 'POST',
      url: '/admin/v1/status/notices',
      headers: bearer(admin),
      payload: { kind: 'maintenance', severity: 'minor', title: 'Database upgrade at 22:00' },
    });
    expect((await statusNow()).status).toBe('maintenance');
  });

  it('refuses a notice without a title, with a clear message, and writes nothing', async () => {
    const before = await direct.query('SELECT 1 FROM "status_notice"');
    const response = await app.inject({
      method: 'POST',
      url: '/admin/v1/status/notices',
      headers: bearer(admin),
      payload: { kind: 'incident', severity: 'minor', title: '  ' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Title is required');
    expect((await direct.query('SELECT 1 FROM "status_notice"')).rowCount).toBe(before.rowCount);
  });

  it('probes at most once per cache period, however many ask', async () => {
    later();
    const first = await statusNow();
    // A notice written behind the server's back is not seen until the cache period ends.
    await direct.query(
      `INSERT INTO "status_notice" ("kind", "severity", "title") VALUES ('incident', 'minor', 'x')`,
    );
    const answers = await Promise.all([statusNow(), statusNow(), statusNow()]);
    for (const answer of answers) expect(answer.checkedAt).toBe(first.checkedAt);
    later();
    expect((await statusNow()).notices?.map((notice) => notice.title)).toContain('x');
  });

  it('answers, degraded, while the database is away, and recovers', async () => {
    later();
    proxy.cut();
    try {
      const answer = await statusNow();
      expect(componentStatus(answer, 'api')).toBe('operational');
      expect(componentStatus(answer, 'database')).toBe('outage');
      // Nothing else reads the database meanwhile; notices cannot be known.
      expect(componentStatus(answer, 'mail')).toBe('unknown');
      expect(answer.notices).toBeNull();
      expect(answer.status).toBe('outage');
    } finally {
      proxy.restore();
    }
    later();
    const back = await statusNow();
    expect(componentStatus(back, 'database')).toBe('operational');
    expect(back.notices).not.toBeNull();
  });
});

describe('an external status page', () => {
  it('is named by the answer when FLOTILLA_STATUS_PAGE_URL is set', async () => {
    const other = buildServer(
      createTestContext(direct, { config: { statusPageUrl: 'https://status.example.com/' } }),
    );
    await other.ready();
    try {
      const response = await other.inject({ url: '/status/v1' });
      expect(response.json<StatusAnswer>().externalUrl).toBe('https://status.example.com/');
    } finally {
      await other.close();
    }
  });
});
