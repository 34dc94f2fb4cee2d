import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createDeviceContacts } from './device-contacts.js';
import type { Schedule } from '../../infra/scheduling/periodic-task.js';
import { registerHeartbeat } from './register-heartbeat.js';

type Stored = {
  last_contact_at: Date | null;
  online_since: Date | null;
  memory_usage: number | null;
  cpu_usage: number | null;
  metrics_reported_at: Date | null;
};

describe('device contacts: recorded in memory, written in batches', () => {
  let db: Database;
  let fleet: fx.FleetFixture;

  beforeAll(async () => {
    db = await createTestDatabase();
    fleet = await fx.createFleet(db, await fx.createOrganization(db, 'Contacts'), 'Batched');
  });
  afterAll(async () => {
    await db.close();
  });

  const devices = async (count: number): Promise<number[]> => {
    const ids: number[] = [];
    for (let n = 0; n < count; n += 1) ids.push((await fx.createDevice(db, fleet.id, 'c')).id);
    return ids;
  };

  const stored = async (id: number): Promise<Stored | undefined> =>
    (
      await db.query<Stored>(
        `SELECT "last_contact_at", "online_since", "memory_usage", "cpu_usage", "metrics_reported_at"
           FROM "device" WHERE "id" = $1`,
        [id],
      )
    ).rows[0];

  // The database, with the statements sent through it counted, failing while `down` is set.
  const flaky = () => {
    const state = { statements: 0, down: false };
    const queryable: Queryable = {
      query: (sql, params) => {
        if (state.down) return Promise.reject(new Error('connection refused'));
        state.statements += 1;
        return db.query(sql, params);
      },
    };
    return { queryable, state };
  };

  it('writes every device heard from since the last flush in one statement', async () => {
    const ids = await devices(30);
    const { queryable, state } = flaky();
    const contacts = createDeviceContacts(queryable);
    const at = new Date('2032-01-01T00:00:00Z');
    for (const id of ids) contacts.record(id, at);
    // A later contact of the same device replaces the earlier one.
    const first = ids[0] ?? 0;
    contacts.record(first, new Date(at.getTime() + 3_000));
    expect(contacts.pendingCount()).toBe(30);
    expect((await stored(first))?.last_contact_at).toBeNull();
    await contacts.flush();
    expect(state.statements).toBe(1);
    expect(contacts.pendingCount()).toBe(0);
    expect((await stored(first))?.last_contact_at).toEqual(new Date(at.getTime() + 3_000));
    for (const id of ids.slice(1)) expect((await stored(id))?.last_contact_at).toEqual(at);
    // Nothing pending: nothing sent.
    await contacts.flush();
    expect(state.statements).toBe(1);
  });

  it('keeps what it could not write while the database is away, and writes it when back', async () => {
    const [id = 0] = await devices(1);
    const { queryable, state } = flaky();
    const contacts = createDeviceContacts(queryable);
    const at = new Date('2032-02-01T00:00:00Z');
    contacts.record(id, at, { memory_usage: 100 });
    state.down = true;
    await expect(contacts.flush()).rejects.toThrow('connection refused');
    expect(contacts.pendingCount()).toBe(1);
    // Newer readings arrive meanwhile: they win, column by column.
    const later = new Date(at.getTime() + 1_000);
    contacts.record(id, later, { cpu_usage: 7 });
    state.down = false;
    await contacts.flush();
    expect(await stored(id)).toEqual({
      last_contact_at: later,
      online_since: later,
      memory_usage: 100,
      cpu_usage: 7,
      metrics_reported_at: later,
    });
  });

  it('holds at most maxPending devices until a flush succeeds', async () => {
    const ids = await devices(3);
    const { queryable, state } = flaky();
    const contacts = createDeviceContacts(queryable, { maxPending: 2 });
    const at = new Date('2032-03-01T00:00:00Z');
    for (const id of ids) contacts.record(id, at);
    expect(contacts.pendingCount()).toBe(2);
    state.down = true;
    await expect(contacts.flush()).rejects.toThrow();
    expect(contacts.pendingCount()).toBe(2);
  });

  it('sends no bare contact within 10 s of the one it stored, unless the device was forgotten', async () => {
    const [id = 0, other = 0] = await devices(2);
    const { queryable, state } = flaky();
    const contacts = createDeviceContacts(queryable);
    const at = new Date('2032-06-01T00:00:00Z');
    const after = (ms: number) => new Date(at.getTime() + ms);
    contacts.record(id, at);
    await contacts.flush();
    expect(state.statements).toBe(1);
    // Polls more often than contacts are written: the statement would skip them, so they stay.
    contacts.record(id, after(4_000));
    contacts.record(id, after(9_999));
    expect(contacts.pendingCount()).toBe(0);
    // Metrics always go (their own interval is the database's to decide), and so does another
    // device, and the first contact 10 s after the stored one.
    contacts.record(other, after(5_000));
    contacts.record(id, after(5_000), { cpu_usage: 3 });
    expect(contacts.pendingCount()).toBe(2);
    await contacts.flush();
    contacts.record(id, after(10_000));
    expect(contacts.pendingCount()).toBe(1);
    await contacts.flush();
    expect((await stored(id))?.last_contact_at).toEqual(after(10_000));
    expect((await stored(id))?.cpu_usage).toBe(3);
    // A lost cloudlink: the next contact is sent at once (the database ends the loss with it).
    await db.query(`UPDATE "device" SET "cloudlink_lost_at" = $2 WHERE "id" = $1`, [
      id,
      after(11_000),
    ]);
    contacts.record(id, after(12_000));
    expect(contacts.pendingCount()).toBe(0);
    contacts.forget(id);
    contacts.record(id, after(12_000));
    await contacts.flush();
    expect((await stored(id))?.last_contact_at).toEqual(after(12_000));
  });

  it('keeps nothing of a device forgotten while its contact was on its way', async () => {
    const [id = 0] = await devices(1);
    let sent: () => void = () => undefined;
    const sending = new Promise<void>((resolve) => {
      sent = resolve;
    });
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const queryable: Queryable = {
      query: (sql, params) => {
        sent();
        return released.then(() => db.query(sql, params));
      },
    };
    const contacts = createDeviceContacts(queryable);
    const at = new Date('2032-07-01T00:00:00Z');
    contacts.record(id, at);
    const flushed = contacts.flush();
    await sending;
    contacts.forget(id);
    release();
    await flushed;
    contacts.record(id, new Date(at.getTime() + 1_000));
    expect(contacts.pendingCount()).toBe(1);
  });

  it('splits a large flush into statements of chunkSize devices', async () => {
    const ids = await devices(5);
    const { queryable, state } = flaky();
    const contacts = createDeviceContacts(queryable, { chunkSize: 2 });
    for (const id of ids) contacts.record(id, new Date('2032-04-01T00:00:00Z'));
    await contacts.flush();
    expect(state.statements).toBe(3);
  });

  it('flushes on the interval of the configuration and when the server closes', async () => {
    const [id = 0] = await devices(1);
    // The test runs the scheduled flush itself.
    const scheduled: { task: () => void; ms: number }[] = [];
    const schedule: Schedule = (task, ms) => {
      const entry = { task, ms };
      scheduled.push(entry);
      return () => scheduled.splice(scheduled.indexOf(entry), 1);
    };
    const ctx = createTestContext(db, { config: { contactFlushIntervalMs: 250 } });
    const app = await createTestApp(ctx, (instance, context) =>
      registerHeartbeat(instance, context, { schedule }),
    );
    try {
      expect(scheduled.map((entry) => entry.ms)).toEqual([250]);
      const at = new Date('2032-05-01T00:00:00Z');
      ctx.contacts.record(id, at);
      expect((await stored(id))?.last_contact_at).toBeNull();
      scheduled.shift()?.task();
      // The flush the task started; the next one is scheduled when it is done.
      await ctx.contacts.flush();
      expect((await stored(id))?.last_contact_at).toEqual(at);
      ctx.contacts.record(id, new Date(at.getTime() + 20_000));
    } finally {
      await app.close();
    }
    expect((await stored(id))?.last_contact_at).toEqual(new Date('2032-05-01T00:00:20Z'));
    expect(scheduled).toEqual([]);
  });
});
