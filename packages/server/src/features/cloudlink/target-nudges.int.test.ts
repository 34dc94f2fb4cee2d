import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import { connectFakeDevice, type FakeDevice } from '../../test-support/fake-device-client.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { waitFor } from '../../test-support/wait-for.js';
import { createApiKey } from '../api-keys/store-api-key.js';

// A committed change of what a device runs reaches its agent at once over the cloudlink, so it
// polls now instead of at its next interval: every connected device of a changed fleet, only the
// device itself for a change of one device, and in paced batches.

let db: Database;
let app: FastifyInstance;
let ctx: AppContext;
let url = '';
let fleet: fx.FleetFixture;
let other: fx.FleetFixture;
const connected: FakeDevice[] = [];

type Linked = { id: number; fake: FakeDevice };

const connect = async (target: fx.FleetFixture, name: string): Promise<Linked> => {
  const device = await fx.createDevice(db, target.id, name);
  const key = await createApiKey(db, device.actorId, { name: 'device key' });
  const fake = await connectFakeDevice(url, key, { uuid: device.uuid });
  connected.push(fake);
  await waitFor('the session', async () => {
    const { rowCount } = await db.query('SELECT 1 FROM "cloudlink_session" WHERE "device" = $1', [
      device.id,
    ]);
    return rowCount === 1;
  });
  return { id: device.id, fake };
};

beforeAll(async () => {
  db = await createTestDatabase();
  const organization = await fx.createOrganization(db, 'Nudgers');
  fleet = await fx.createFleet(db, organization, 'nudged');
  other = await fx.createFleet(db, organization, 'quiet');
  ctx = createTestContext(db);
  app = buildServer(ctx, { cloudlink: { targetNudgeBatch: 1, targetNudgeIntervalMs: 20 } });
  // One device per tick: pacing shows within a test.
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  for (const fake of connected) await fake.close();
  await app?.close();
  await db?.close();
});

describe('target changes reach connected devices', () => {
  it("tells every device of a fleet when the fleet's target changes, and no other", async () => {
    const first = await connect(fleet, 'nudged-1');
    const second = await connect(fleet, 'nudged-2');
    const third = await connect(fleet, 'nudged-3');
    const elsewhere = await connect(other, 'quiet-1');
    await db.query(`UPDATE "application" SET "app_name" = 'nudged-renamed' WHERE "id" = $1`, [
      fleet.id,
    ]);
    // One device per tick: the three are told over three ticks, each once.
    await waitFor('every device of the fleet to be told', () =>
      [first, second, third].every((device) => device.fake.targetChanges === 1),
    );
    expect(elsewhere.fake.targetChanges).toBe(0);
  });

  it('tells only the device whose own target changed', async () => {
    const changed = await connect(other, 'quiet-2');
    const unchanged = await connect(other, 'quiet-3');
    const before = unchanged.fake.targetChanges;
    await db.query(`UPDATE "device" SET "device_name" = 'renamed' WHERE "id" = $1`, [changed.id]);
    await waitFor('the device to be told', () => changed.fake.targetChanges === 1);
    // A change of the other fleet after it: once it arrives, the first one's tick is long done.
    await db.query(`UPDATE "application" SET "app_name" = 'quiet-renamed' WHERE "id" = $1`, [
      other.id,
    ]);
    await waitFor('the fleet change', () => unchanged.fake.targetChanges === before + 1);
    expect(changed.fake.targetChanges).toBe(2);
  });

  it('says nothing for changes a target is not built from', async () => {
    const device = await connect(fleet, 'nudged-4');
    await db.query(`UPDATE "device" SET "note" = 'a note' WHERE "id" = $1`, [device.id]);
    await db.query(`UPDATE "device" SET "device_name" = 'nudged-4-renamed' WHERE "id" = $1`, [
      device.id,
    ]);
    await waitFor('the rename', () => device.fake.targetChanges >= 1);
    expect(device.fake.targetChanges).toBe(1);
  });
});
