import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type Database, openDatabase, type Queryable } from '../../infra/db/database.js';
import { migrate } from '../../infra/db/migrate.js';
import * as fx from '../../test-support/fixtures.js';
import type { Schedule } from '../../infra/scheduling/periodic-task.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import type { IngestedLine } from './log-line.js';
import { deleteLogs, insertLogLines, readHistory, trimLogs } from './log-store.js';
import { dayMs, listLogPartitions, maintainLogPartitions } from './log-partitions.js';
import { registerDeviceLogs } from './register-device-logs.js';

// Day partitions of device_log on a fake clock: created ahead, dropped whole once past the
// retention (no DELETE), stray lines of the DEFAULT partition moved, and the conversion of an
// existing table with rows.

const at = (iso: string): Date => new Date(iso);
const dayOf = (iso: string): number => at(iso).getTime();

// The database with every statement sent through it recorded (transactions included).
const recording = (db: Database): { db: Database; statements: string[] } => {
  const statements: string[] = [];
  const wrap = (inner: Queryable): Queryable => ({
    query: (sql, params, options) => {
      statements.push(sql);
      return inner.query(sql, params, options);
    },
  });
  return {
    statements,
    db: {
      ...db,
      ...wrap(db),
      transaction: (work, limits) => db.transaction((tx) => work(wrap(tx)), limits),
    },
  };
};

let seq = 0;
const line = (deviceId: number, createdAt: number, message: string): IngestedLine => ({
  deviceId,
  createdAt,
  seq: ++seq,
  line: { message, timestamp: createdAt, isSystem: false, isStdErr: false, serviceId: null },
});

describe('device log partitions', () => {
  let db: Database;
  let fleetId: number;
  let device: number;

  const messages = async (deviceId: number): Promise<string[]> => {
    const { rows } = await db.query<{ message: string }>(
      `SELECT "message" FROM "device_log" WHERE "device" = $1 ORDER BY "id"`,
      [deviceId],
    );
    return rows.map((row) => row.message);
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    const organization = await fx.createOrganization(db, 'Partitions');
    fleetId = (await fx.createFleet(db, organization, 'Days')).id;
    device = (await fx.createDevice(db, fleetId, 'daily')).id;
  });
  afterAll(async () => {
    await db?.close();
  });

  it('creates days ahead of the clock and drops whole days past the retention, with no DELETE', async () => {
    const first = await maintainLogPartitions(db, {
      now: at('2030-01-01T12:00:00Z'),
      retentionDays: 3,
      aheadDays: 2,
    });
    expect(first.created).toEqual([
      'device_log_20300101',
      'device_log_20300102',
      'device_log_20300103',
    ]);
    const names = (await listLogPartitions(db)).map((partition) => partition.name);
    expect(names.slice(-3)).toEqual(first.created);

    await insertLogLines(db, 1, [
      line(device, dayOf('2030-01-01T10:00:00Z'), 'day 1'),
      line(device, dayOf('2030-01-02T10:00:00Z'), 'day 2'),
      line(device, dayOf('2030-01-03T23:59:59.999Z'), 'day 3'),
    ]);
    const { rows } = await db.query<{ partition: string; message: string }>(
      `SELECT tableoid::regclass::text AS "partition", "message" FROM "device_log" ORDER BY "id"`,
    );
    expect(rows).toEqual([
      { partition: 'device_log_20300101', message: 'day 1' },
      { partition: 'device_log_20300102', message: 'day 2' },
      { partition: 'device_log_20300103', message: 'day 3' },
    ]);

    // Four days on: day 1 ended more than 3 days ago, day 2 not quite.
    const recorded = recording(db);
    const later = await maintainLogPartitions(recorded.db, {
      now: at('2030-01-05T12:00:00Z'),
      retentionDays: 3,
      aheadDays: 2,
    });
    // Today and ahead only: a day already past is not created.
    expect(later.created).toEqual([
      'device_log_20300105',
      'device_log_20300106',
      'device_log_20300107',
    ]);
    expect(later.dropped).toEqual(['device_log_20300101']);
    expect(await messages(device)).toEqual(['day 2', 'day 3']);
    expect(recorded.statements.filter((text) => /\bDELETE\b/i.test(text))).toEqual([]);
    expect(
      recorded.statements.some((text) => /^DROP TABLE "device_log_20300101"$/.test(text)),
    ).toBe(true);

    // Run again at the same time: nothing to do.
    expect(
      await maintainLogPartitions(db, {
        now: at('2030-01-05T13:00:00Z'),
        retentionDays: 3,
        aheadDays: 2,
      }),
    ).toEqual({ created: [], dropped: [] });
  });

  it('keeps the per-device line cap and newest-first reads across partitions', async () => {
    const capped = (await fx.createDevice(db, fleetId, 'capped')).id;
    await insertLogLines(db, 1, [
      line(capped, dayOf('2030-01-04T01:00:00Z'), 'a'),
      line(capped, dayOf('2030-01-05T01:00:00Z'), 'b'),
      line(capped, dayOf('2030-01-06T01:00:00Z'), 'c'),
      line(capped, dayOf('2030-01-07T01:00:00Z'), 'd'),
    ]);
    const newest = await readHistory(db, { deviceId: capped, count: 2, start: undefined });
    expect(newest.map((row) => row.message)).toEqual(['c', 'd']);
    await trimLogs(db, [capped], 2);
    expect(await messages(capped)).toEqual(['c', 'd']);
  });

  it('moves lines of a day not yet created out of the DEFAULT partition when it is created', async () => {
    const early = (await fx.createDevice(db, fleetId, 'early')).id;
    const far = dayOf('2031-06-01T08:00:00Z');
    await insertLogLines(db, 1, [line(early, far, 'ahead of its day')]);
    const before = await db.query<{ id: number; partition: string }>(
      `SELECT "id", tableoid::regclass::text AS "partition" FROM "device_log" WHERE "device" = $1`,
      [early],
    );
    expect(before.rows.map((row) => row.partition)).toEqual(['device_log_default']);

    const upkeep = await maintainLogPartitions(db, {
      now: at('2031-06-01T00:30:00Z'),
      retentionDays: 3650,
      aheadDays: 0,
    });
    expect(upkeep.created).toEqual(['device_log_20310601']);
    const after = await db.query<{ id: number; partition: string }>(
      `SELECT "id", tableoid::regclass::text AS "partition" FROM "device_log" WHERE "device" = $1`,
      [early],
    );
    expect(after.rows).toEqual([{ id: before.rows[0]?.id, partition: 'device_log_20310601' }]);
    // The moved partition got the index and the foreign key like any other.
    await db.query(`DELETE FROM "device" WHERE "id" = $1`, [early]);
    expect(await messages(early)).toEqual([]);
  });

  it("removes a deleted device's lines from every partition", async () => {
    const gone = await fx.createDevice(db, fleetId, 'gone');
    await insertLogLines(db, 1, [
      line(gone.id, 1_000, 'long ago'),
      line(gone.id, dayOf('2030-01-06T01:00:00Z'), 'recent'),
    ]);
    expect(await messages(gone.id)).toEqual(['long ago', 'recent']);
    await db.query(`DELETE FROM "device" WHERE "id" = $1`, [gone.id]);
    expect(await messages(gone.id)).toEqual([]);
    // And the delete route's own statement reaches every partition too.
    const kept = (await fx.createDevice(db, fleetId, 'kept')).id;
    await insertLogLines(db, 1, [
      line(kept, 1_000, 'x'),
      line(kept, dayOf('2030-01-06T01:00:00Z'), 'y'),
    ]);
    await deleteLogs(db, kept);
    expect(await messages(kept)).toEqual([]);
  });
});

describe('the scheduled upkeep', () => {
  it('runs when the server is ready and then every interval, on the server clock', async () => {
    const db = await createTestDatabase();
    let now = at('2033-03-10T05:00:00Z');
    const due: { task: () => void; ms: number }[] = [];
    const schedule: Schedule = (task, ms) => {
      due.push({ task, ms });
      return () => undefined;
    };
    const ctx = createTestContext(db, {
      now: () => now,
      config: { deviceLogs: { retentionDays: 2 } },
    });
    const app = await createTestApp(ctx, (instance, appCtx) =>
      registerDeviceLogs(instance, appCtx, {
        partitionSchedule: schedule,
        partitionAheadDays: 1,
        partitionCheckMs: 3_600_000,
      }),
    );
    const names = async (): Promise<string[]> =>
      (await listLogPartitions(db)).map((partition) => partition.name);
    // Runs the task due next and waits until it scheduled the following one (its end).
    const runDue = async (): Promise<void> => {
      const next = due.shift();
      if (!next) throw new Error('nothing scheduled');
      const scheduled = due.length;
      next.task();
      await vi.waitUntil(() => due.length > scheduled, { timeout: 30_000 });
    };
    try {
      expect(due.map((entry) => entry.ms)).toEqual([0]);
      await runDue();
      expect(await names()).toEqual(['device_log_20330310', 'device_log_20330311']);
      expect(due.map((entry) => entry.ms)).toEqual([3_600_000]);
      now = at('2033-03-13T05:00:00Z');
      await runDue();
      expect(await names()).toEqual([
        'device_log_20330311',
        'device_log_20330313',
        'device_log_20330314',
      ]);
    } finally {
      await app.close();
      await db.close();
    }
  });
});

describe('converting device_log to partitions (migration 0077)', () => {
  it('keeps every row, its id and the ids after it', async () => {
    const adminUrl = inject('postgresAdminUrl');
    const name = `flotilla_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const db = openDatabase(url.toString(), { max: 2 });
    try {
      await migrate(db, undefined, { upTo: '0076' });
      const organization = await fx.createOrganization(db, 'Old');
      const fleet = await fx.createFleet(db, organization, 'Logs');
      const device = (await fx.createDevice(db, fleet.id, 'old')).id;
      const today = Math.floor(Date.now() / dayMs) * dayMs;
      await insertLogLines(db, 7, [
        line(device, 1_000, 'ancient'),
        line(device, today - 1, 'yesterday'),
        line(device, today + 1, 'today'),
      ]);
      const before = await db.query<{ id: number; message: string }>(
        `SELECT "id", "message" FROM "device_log" ORDER BY "id"`,
      );

      await migrate(db);
      const after = await db.query<{ id: number; message: string; partition: string }>(
        `SELECT "id", "message", tableoid::regclass::text AS "partition" FROM "device_log" ORDER BY "id"`,
      );
      expect(after.rows.map(({ id, message }) => ({ id, message }))).toEqual(before.rows);
      // The migration's "today" (its own clock: the same day unless midnight passed meanwhile).
      const upTo = (await listLogPartitions(db)).find((partition) =>
        partition.name.startsWith('device_log_before_'),
      )?.to;
      expect(upTo === today || upTo === today + dayMs).toBe(true);
      const day = new Date(upTo ?? 0).toISOString().slice(0, 10).replace(/-/g, '');
      const expected = upTo === today ? `device_log_${day}` : `device_log_before_${day}`;
      expect(after.rows.map((row) => row.partition)).toEqual([
        `device_log_before_${day}`,
        `device_log_before_${day}`,
        expected,
      ]);
      await insertLogLines(db, 7, [line(device, today + 2, 'new')]);
      const newest = await readHistory(db, { deviceId: device, count: 1, start: undefined });
      expect(newest[0]?.message).toBe('new');
      expect(newest[0]?.id).toBeGreaterThan(before.rows.at(-1)?.id ?? Infinity);
    } finally {
      await db.close();
      await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);
      await admin.end();
    }
  });
});
