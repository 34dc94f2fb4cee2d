import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import {
  addOrganizationMember,
  createDevice,
  createFleet,
  createOrganization,
  createUser,
} from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import { runBillingSweep } from './register-billing-admin.js';

// The free plan's allowance (10 devices): the devices over it, the newest, are frozen by the
// hourly sweep (for an organization nobody looks at) or any billing read; removing a device
// unfreezes the next one, an upgrade unfreezes them all, and a device frozen for another reason
// stays frozen.

let db: Database;
let ctx: AppContext;
let app: FastifyInstance;
let admin: number;
let organization: number;
const devices: number[] = [];
let frozenOtherwise: number;

const frozenDevices = async () =>
  (
    await db.query<{ id: number }>(
      `SELECT d."id" FROM "device" d JOIN "application" a ON a."id" = d."belongs_to__application"
       WHERE a."organization" = $1 AND d."is_frozen" ORDER BY d."id"`,
      [organization],
    )
  ).rows.map((row) => row.id);

beforeAll(async () => {
  db = await createTestDatabase();
  ctx = createTestContext(db, { config: { billingEnabled: true } });
  app = buildServer(ctx);
  await app.ready();
  organization = await createOrganization(db, 'Thrifty');
  const owner = await createUser(db, 'thrifty-owner');
  await addOrganizationMember(db, owner.userId, organization, 'administrator');
  admin = owner.userId;
  const fleet = await createFleet(db, organization, 'Many');
  for (let n = 0; n < 12; n += 1) {
    const device = await createDevice(db, fleet.id, `device-${n}`);
    await db.query(
      `UPDATE "device" SET "created_at" = '2026-01-01'::timestamptz + make_interval(mins => $2)
       WHERE "id" = $1`,
      [device.id, n],
    );
    devices.push(device.id);
  }
  frozenOtherwise = (await createDevice(db, fleet.id, 'held')).id;
  await db.query(`UPDATE "device" SET "is_frozen" = true WHERE "id" = $1`, [frozenOtherwise]);
});
afterAll(async () => {
  await app?.close();
  await db?.close();
});

describe('the free plan’s device allowance', () => {
  it('freezes the newest devices over it, from the hourly sweep', async () => {
    await runBillingSweep(ctx, 'http://console.test');
    expect(await frozenDevices()).toEqual([devices[10], devices[11], frozenOtherwise]);
    const token = await issueSessionToken(ctx, db, admin);
    const usage = await app.inject({
      url: `/billing/v1/account/${organization}/usage`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(usage.json<{ currentUsage: Record<string, number> }>().currentUsage).toMatchObject({
      'device:any': 10,
      'device:frozen': 3,
    });
  });

  it('unfreezes the next device when one is removed, and all of them on a paid plan', async () => {
    await db.query(`DELETE FROM "device" WHERE "id" = $1`, [devices[0] ?? 0]);
    await runBillingSweep(ctx, 'http://console.test');
    const token = await issueSessionToken(ctx, db, admin);
    await app.inject({
      url: `/billing/v1/account/${organization}/plan`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await frozenDevices()).toEqual([devices[11], frozenOtherwise]);
    const upgrade = await app.inject({
      method: 'PATCH',
      url: `/billing/v1/account/${organization}/plan`,
      headers: { authorization: `Bearer ${token}` },
      payload: { tier: 'prototype-v2' },
    });
    expect(upgrade.statusCode).toBe(200);
    expect(await frozenDevices()).toEqual([frozenOtherwise]);
  });
});
