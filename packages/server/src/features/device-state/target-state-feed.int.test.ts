import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authChannel } from '../../infra/auth/actor-cache-feed.js';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import {
  devicePolls,
  type PollingProcess,
  startPollingProcesses,
} from '../../test-support/target-state-processes.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import { targetStateChannel } from './target-state-cache.js';
import { waitFor } from '../../test-support/wait-for.js';

// The target-state cache when its notifications fail, and what a fleet-level change costs.
describe('target-state cache: lost notifications and fleet-level changes', () => {
  let db: Database;
  let processes: PollingProcess[];
  let device: fx.DeviceFixture;
  let polls: ReturnType<typeof devicePolls>;

  beforeAll(async () => {
    db = await createTestDatabase();
    // Lost notifications are not retried within the test: it reconnects them itself, so nothing
    // ends the deaf window early however slow the machine is.
    processes = await startPollingProcesses(db, ['A', 'B'], 3_600_000);
    const fleet = await fx.createFleet(db, await fx.createOrganization(db, 'Feeds'), 'Fed');
    device = await fx.createDevice(db, fleet.id, 'listener');
    const deviceKey = await createApiKey(db, device.actorId, { name: 'device' });
    polls = devicePolls(db, processes, device, deviceKey);
  });
  afterAll(async () => {
    for (const { app } of processes ?? []) await app.close();
    await db?.close();
  });

  it('reads the database while its notifications are down, and caches again once they are back', async () => {
    const etag = await polls.primeAll();
    // Each process listens to the target-state and authentication channels on one connection,
    // its own (other features' channels may share it; they are not counted here).
    const carriers = processes.map(({ name, ctx }) => {
      expect(ctx.notifications.channels(), name).toEqual(
        expect.arrayContaining([targetStateChannel, authChannel]),
      );
      const pid = ctx.notifications.backendPid();
      expect(pid, name).toBeDefined();
      return pid;
    });
    expect(new Set(carriers).size).toBe(processes.length);
    const { rows } = await db.query<{ pid: number }>(
      `SELECT "pid" FROM pg_stat_activity
        WHERE "datname" = current_database() AND "pid" = ANY($1::int[])
          AND ("query" LIKE 'LISTEN%' OR "query" LIKE '%flotilla_bus_heartbeat%')`,
      [carriers],
    );
    expect(rows).toHaveLength(processes.length);
    await db.query('SELECT pg_terminate_backend("pid") FROM unnest($1::int[]) AS t("pid")', [
      rows.map((row) => row.pid),
    ]);
    await waitFor('both processes to notice', () =>
      processes.every((process) => !process.ctx.notifications.isLive()),
    );
    // Made while nobody listens: no process is ever notified of them. What a process builds
    // meanwhile is not kept either, so a second change is seen as well.
    await db.query(`UPDATE "device" SET "device_name" = 'unnoticed' WHERE "id" = $1`, [device.id]);
    await polls.expectCurrent('renamed while deaf', etag, true);
    const renamed = (await polls.fresh()).etag;
    await db.query(`UPDATE "device" SET "device_name" = 'unnoticed again' WHERE "id" = $1`, [
      device.id,
    ]);
    await polls.expectCurrent('renamed again while deaf', renamed, true);
    expect(processes.some((process) => process.ctx.notifications.isLive())).toBe(false);
    for (const { ctx } of processes) {
      await ctx.notifications.stop();
      await ctx.notifications.start();
    }
    await waitFor('both processes to listen again', () =>
      processes.every((process) => process.ctx.notifications.isLive()),
    );
    await polls.primeAll();
  });

  it('notifies a fleet-level change once, writing no device row, however many devices', async () => {
    const crowd = await fx.createFleet(db, await fx.createOrganization(db, 'Crowd'), 'Crowd');
    for (let n = 0; n < 200; n += 1) await fx.createDevice(db, crowd.id, `crowd-${n}`);
    const versions = async () =>
      (
        await db.query<{ v: string }>(
          'SELECT "xmin"::text AS "v" FROM "device" WHERE "belongs_to__application" = $1 ORDER BY "id"',
          [crowd.id],
        )
      ).rows.map((row) => row.v);
    const before = await versions();
    const listener = await db.connect();
    const heard: string[] = [];
    listener.on('notification', (message) => heard.push(message.payload ?? ''));
    try {
      await listener.query('LISTEN "target_state"');
      await db.query(
        `INSERT INTO "application_environment_variable" ("application", "name", "value") VALUES ($1, 'EVERYONE', '1')`,
        [crowd.id],
      );
      // A notification sent after it arrives after it.
      await db.query(`SELECT pg_notify('target_state', 'end')`);
      await waitFor('the notifications', () => heard.includes('end'));
    } finally {
      listener.release(true);
    }
    expect(heard).toEqual([`f:${crowd.id}`, 'end']);
    expect(await versions()).toEqual(before);
  });
});
