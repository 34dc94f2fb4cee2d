import type { AuditPage } from '@flotilla/shared/audit-log/audit-entry';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { bearer, signedInUser } from '../../test-support/user-sessions.js';
import { pruneAuditLog } from './audit-retention.js';

// Each rule of audit_log_entry "read", from the side of a caller without it: an organization's
// log gives nothing to a guest, an outsider, a plain member, an administrator of another
// organization, a support agent or a device; the whole log nothing to an organization
// administrator. And retention prunes only what is past it.
let db: Database;
let app: FastifyInstance;
let acme: number;
let other: number;
const tokens: Record<string, string> = {};

const get = (url: string, token: string | undefined) =>
  app.inject({ method: 'GET', url, headers: token === undefined ? {} : bearer(token) });

beforeAll(async () => {
  db = await createTestDatabase();
  app = buildServer(createTestContext(db));
  await app.ready();
  acme = await fx.createOrganization(db, 'Acme');
  other = await fx.createOrganization(db, 'Other');
  for (const [name, org, role] of [
    ['acmeadmin', acme, 'administrator'],
    ['acmemember', acme, 'member'],
    ['otheradmin', other, 'administrator'],
  ] as const) {
    const user = await signedInUser(db, app, name);
    await fx.addOrganizationMember(db, user.id, org, role);
    tokens[name] = user.token;
  }
  tokens.outsider = (await signedInUser(db, app, 'outsider')).token;
  tokens.agent = (await signedInUser(db, app, 'agent', 'support_agent')).token;
  tokens.platform = (await signedInUser(db, app, 'platform', 'balena_admin')).token;
  const fleet = await fx.createFleet(db, acme, 'Fleet');
  const device = await fx.createDevice(db, fleet.id, 'one');
  const tag = await app.inject({
    method: 'POST',
    url: '/v7/device_tag',
    headers: bearer(tokens.acmeadmin ?? ''),
    payload: { device: device.id, tag_key: 'k', value: 'v' },
  });
  expect(tag.statusCode).toBe(201);
});
afterAll(async () => {
  await app.close();
  await db.close();
});

describe("an organization's log", () => {
  const routes = () => [
    `/audit-log/v1/organizations/${acme}/entries`,
    `/audit-log/v1/organizations/${acme}/export?format=csv`,
  ];

  it('gives nothing to a guest, an outsider, a member, another organization or a support agent', async () => {
    for (const url of routes()) {
      for (const who of [undefined, 'outsider', 'acmemember', 'otheradmin', 'agent']) {
        const response = await get(url, who === undefined ? undefined : tokens[who]);
        expect([401, 404], `${who ?? 'guest'} ${url}`).toContain(response.statusCode);
        expect(response.body).not.toContain('device_tag');
      }
    }
  });

  it("serves the organization's administrators and platform administrators", async () => {
    for (const who of ['acmeadmin', 'platform']) {
      const response = await get(routes()[0] ?? '', tokens[who]);
      expect(response.statusCode).toBe(200);
      expect(response.json<AuditPage>().entries.map((entry) => entry.resource)).toContain(
        'device_tag',
      );
    }
  });

  it("shows an organization's administrator only their organization's records", async () => {
    const response = await get(`/audit-log/v1/organizations/${other}/entries`, tokens.otheradmin);
    expect(response.statusCode).toBe(200);
    expect(response.json<AuditPage>().entries).toEqual([]);
  });
});

describe('the whole log', () => {
  it('gives nothing to an organization administrator, a support agent or a guest', async () => {
    for (const url of ['/audit-log/v1/entries', '/audit-log/v1/export']) {
      for (const who of [undefined, 'acmeadmin', 'agent']) {
        const response = await get(url, who === undefined ? undefined : tokens[who]);
        expect(response.statusCode, `${who ?? 'guest'} ${url}`).toBe(401);
      }
    }
  });

  it('serves platform administrators', async () => {
    const response = await get('/audit-log/v1/export?format=ndjson', tokens.platform);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('"resource":"device_tag"');
  });
});

describe('retention', () => {
  it('prunes records older than the cutoff in batches, and nothing newer', async () => {
    await db.query(
      `INSERT INTO "audit_log_entry" ("occurred_at", "action", "resource", "actor_kind")
       SELECT timestamptz '2020-01-01' + n * interval '1 minute', 'update', 'old', 'anonymous'
         FROM generate_series(1, 7) AS n`,
    );
    const before = await db.query<{ n: number }>(
      `SELECT count(*)::integer AS "n" FROM "audit_log_entry" WHERE "resource" <> 'old'`,
    );
    expect(await pruneAuditLog(db, new Date('2021-01-01T00:00:00Z'), 3)).toBe(7);
    const after = await db.query<{ n: number; old: number }>(
      `SELECT count(*)::integer AS "n", count(*) FILTER (WHERE "resource" = 'old')::integer AS "old"
         FROM "audit_log_entry"`,
    );
    expect(after.rows[0]).toEqual({ n: before.rows[0]?.n, old: 0 });
  });
});

describe("a fleet's history", () => {
  it('gives nothing to a member of the organization or an outsider, and serves its administrators', async () => {
    const { rows } = await db.query<{ id: number }>(
      `SELECT "id" FROM "application" WHERE "organization" = $1`,
      [acme],
    );
    const url = `/audit-log/v1/fleets/${rows[0]?.id ?? 0}/entries`;
    for (const who of [undefined, 'outsider', 'acmemember', 'otheradmin', 'agent']) {
      const response = await get(url, who === undefined ? undefined : tokens[who]);
      expect([401, 404], who ?? 'guest').toContain(response.statusCode);
    }
    for (const who of ['acmeadmin', 'platform']) {
      const response = await get(url, tokens[who]);
      expect(response.statusCode).toBe(200);
      expect(response.json<AuditPage>().entries.map((entry) => entry.resource)).toContain(
        'device_tag',
      );
    }
  });
});
