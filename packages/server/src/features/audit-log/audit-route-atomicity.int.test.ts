import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import { withAuditRefused as refusingAudit } from '../../test-support/audit-refusal.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { bearer, signedInUser } from '../../test-support/user-sessions.js';

// Routes with a transaction of their own (rollout decisions, keys minted) write their audit record
// inside it: a refused change leaves no record, and a record that cannot be written leaves no
// change (a trigger refuses every insert into the log meanwhile).
let db: Database;
let app: FastifyInstance;
let fleet: fx.FleetFixture;
let v2: number;
let admin: { id: number; token: string };

const call = (url: string, payload: object = {}) =>
  app.inject({ method: 'POST', url, headers: bearer(admin.token), payload });

const count = async (sql: string): Promise<number> =>
  (await db.query<{ n: number }>(`SELECT count(*)::integer AS "n" FROM ${sql}`)).rows[0]?.n ?? -1;

const records = (action: string) =>
  db.query<{ resource: string; application: number | null }>(
    `SELECT "resource", "application" FROM "audit_log_entry" WHERE "action" = $1 ORDER BY "id"`,
    [action],
  );

const withAuditRefused = (work: () => Promise<void>) => refusingAudit(db, work);

const rolloutStatus = async (): Promise<string[]> =>
  (await db.query<{ status: string }>(`SELECT "status" FROM "flotilla_rollout"`)).rows.map(
    (row) => row.status,
  );

beforeAll(async () => {
  db = await createTestDatabase();
  app = buildServer(createTestContext(db));
  await app.ready();
  const organization = await fx.createOrganization(db, 'Atomic');
  fleet = await fx.createFleet(db, organization, 'Together');
  const v1 = await fx.createRelease(db, fleet.id, 'a'.repeat(32));
  v2 = await fx.createRelease(db, fleet.id, 'b'.repeat(32), { semver: [2, 0, 0] });
  await db.query(`UPDATE "application" SET "should_be_running__release" = $2 WHERE "id" = $1`, [
    fleet.id,
    v1,
  ]);
  for (const name of ['one', 'two']) await fx.createDevice(db, fleet.id, name);
  admin = await signedInUser(db, app, 'atomicadmin');
  await fx.addOrganizationMember(db, admin.id, organization, 'administrator');
});
afterAll(async () => {
  await app.close();
  await db.close();
});

describe('audit records of rollout decisions', () => {
  const plan = () => ({ targetRelease: v2, waves: [{ percent: 50 }, { percent: 100 }] });

  it('starts no rollout whose record cannot be written', async () => {
    await withAuditRefused(async () => {
      const response = await call(`/rollouts/v1/fleets/${fleet.id}/rollouts`, plan());
      expect(response.statusCode).toBeGreaterThanOrEqual(500);
    });
    expect(await rolloutStatus()).toEqual([]);
    expect(await count(`"flotilla_rollout_event"`)).toBe(0);
  });

  it('records a decision once, in its transaction, and a refused decision not at all', async () => {
    const started = await call(`/rollouts/v1/fleets/${fleet.id}/rollouts`, plan());
    expect(started.statusCode, started.body).toBe(201);
    const id = Number(started.json<{ id: number }>().id);
    expect((await call(`/rollouts/v1/rollouts/${id}/pause`)).statusCode).toBe(200);
    // Refused: only a paused rollout resumes, and this one is paused already.
    expect((await call(`/rollouts/v1/rollouts/${id}/pause`)).statusCode).toBe(409);
    expect((await records('rollout_decision')).rows).toEqual([
      { resource: 'POST /rollouts/v1/fleets/:fleet/rollouts', application: fleet.id },
      { resource: 'POST /rollouts/v1/rollouts/:id/pause', application: fleet.id },
    ]);
  });

  it('keeps a decision whose record cannot be written from happening', async () => {
    const [row] = (await db.query<{ id: number }>(`SELECT "id" FROM "flotilla_rollout"`)).rows;
    await withAuditRefused(async () => {
      const response = await call(`/rollouts/v1/rollouts/${row?.id ?? 0}/resume`);
      expect(response.statusCode).toBeGreaterThanOrEqual(500);
    });
    expect(await rolloutStatus()).toEqual(['paused']);
    expect((await records('rollout_decision')).rows).toHaveLength(2);
  });
});

describe('audit records of keys minted', () => {
  const mint = () =>
    call(`/api-key/application/${fleet.id}/provisioning`, { name: 'line', description: 'x' });
  const keys = () => count(`"api_key"`);

  it('mints no key whose record cannot be written', async () => {
    const before = await keys();
    await withAuditRefused(async () => {
      expect((await mint()).statusCode).toBeGreaterThanOrEqual(500);
    });
    expect(await keys()).toBe(before);
    expect((await records('api_key_created')).rows).toEqual([]);
  });

  it('records a key minted once', async () => {
    const before = await keys();
    expect((await mint()).statusCode).toBe(200);
    expect(await keys()).toBe(before + 1);
    expect((await records('api_key_created')).rows).toEqual([
      { resource: 'POST /api-key/application/:id/provisioning', application: fleet.id },
    ]);
  });
});
