import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { hashApiKey } from '../../infra/auth/api-key-tokens.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { ensureFirstAdmin } from '../users/ensure-first-admin.js';
import { type DemoFleet, demoFileName, seedDemo } from './seed-demo.js';

describe('the npm start demo', () => {
  let db: Database;
  let dataDir: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-demo-'));
  });
  afterAll(async () => {
    await db.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('does nothing before there is an administrator', async () => {
    expect(await seedDemo(db, dataDir, () => undefined)).toEqual({ fleets: [], build: undefined });
  });

  it('creates the organization and fleets once, with fresh working provisioning keys each start', async () => {
    await ensureFirstAdmin(
      db,
      { adminEmail: 'root@example.com', adminPassword: 'a-long-password' },
      () => undefined,
    );
    const printed: string[] = [];
    const { fleets: first } = await seedDemo(db, dataDir, (line) => printed.push(line), undefined, {
      now: new Date('2026-05-01T00:00:00Z'),
    });
    expect(first.map((fleet) => fleet.slug)).toEqual([
      'demo/greenhouse-sensors',
      'demo/warehouse-gateways',
      'demo/retail-kiosks',
    ]);
    expect(printed.join('\n')).toMatch(/Demo organization created/);
    const file = JSON.parse(
      await readFile(path.join(dataDir, demoFileName), 'utf8'),
    ) as DemoFleet[];
    expect(file).toEqual(first);
    const { fleets: second } = await seedDemo(db, dataDir, () => undefined);
    expect(second).toHaveLength(3);
    const organizations = await db.query('SELECT 1 FROM "organization" WHERE "handle" = $1', [
      'demo',
    ]);
    expect(organizations.rowCount).toBe(1);
    // With billing on: Pilot, annual, its first year invoiced and paid (nothing due for a year).
    const billing = await db.query<{ billing_code: string; billing_cycle: string; state: string }>(
      `SELECT p."billing_code", s."billing_cycle", i."state" FROM "organization" o
       JOIN "subscription" s ON s."is_for__organization" = o."id" AND s."is_active"
       JOIN "plan" p ON p."id" = s."is_for__plan"
       JOIN "invoice" i ON i."organization" = o."id" WHERE o."handle" = 'demo'`,
    );
    expect(billing.rows).toEqual([
      { billing_code: 'pilot-v2', billing_cycle: 'annual', state: 'paid' },
    ]);
    // Only the latest key of each fleet is valid.
    const stale = await db.query('SELECT 1 FROM "api_key" WHERE "key_hash" = $1', [
      hashApiKey(first[0]?.provisioningKey ?? ''),
    ]);
    const fresh = await db.query('SELECT 1 FROM "api_key" WHERE "key_hash" = $1', [
      hashApiKey(second[0]?.provisioningKey ?? ''),
    ]);
    expect([stale.rowCount, fresh.rowCount]).toEqual([0, 1]);
    // The administrator administers the demo organization.
    const admin = await db.query(
      `SELECT 1 FROM "organization_access" oa JOIN "organization" o ON o."id" = oa."organization"
       WHERE o."handle" = 'demo' AND oa."role" = 'administrator'`,
    );
    expect(admin.rowCount).toBe(1);
    // Each demo fleet runs a first release with two services.
    const targets = await db.query<{ services: number }>(
      `SELECT count(ri."id")::int AS services FROM "application" a
       JOIN "release_image" ri ON ri."is_part_of__release" = a."should_be_running__release"
       WHERE a."slug" LIKE 'demo/%' GROUP BY a."id"`,
    );
    expect(targets.rows.map((row) => row.services)).toEqual([2, 2, 2]);
    // The host OS catalogue of the demo device types and their CPU architectures.
    const catalogue = await db.query<{ slug: string; releases: number }>(
      `SELECT a."slug", count(r."id")::int AS "releases" FROM "application" a
       JOIN "release" r ON r."belongs_to__application" = a."id"
       WHERE a."slug" LIKE 'balena_os/%' AND a."is_public"
         AND r."is_final" AND r."status" = 'success' AND NOT r."is_invalidated"
       GROUP BY a."slug" ORDER BY a."slug"`,
    );
    expect(catalogue.rows).toEqual([
      { slug: 'balena_os/aarch64-supervisor', releases: 4 },
      { slug: 'balena_os/amd64-supervisor', releases: 4 },
      { slug: 'balena_os/generic-amd64', releases: 7 },
      { slug: 'balena_os/raspberrypi4-64', releases: 7 },
      { slug: 'balena_os/raspberrypi5', releases: 7 },
    ]);
    // Each demo device type has an ESR release, based on a regular one (balena's release tag).
    const esr = await db.query<{ semver: string; base: string }>(
      `SELECT r."semver", t."value" AS "base" FROM "release" r
       JOIN "application" a ON a."id" = r."belongs_to__application"
       JOIN "release_tag" t ON t."release" = r."id" AND t."tag_key" = 'meta-balena-base'
       WHERE a."slug" = 'balena_os/raspberrypi4-64'`,
    );
    expect(esr.rows).toEqual([{ semver: '2025.1.0', base: '6.1.24' }]);
  });
});
