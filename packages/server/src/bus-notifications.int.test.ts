import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fanOutEvents } from './features/webhooks/event-fanout.js';
import { createNatsBus } from './infra/bus/nats-bus.js';
import { type Database, openDatabase } from './infra/db/database.js';
import { createNotificationBus, type NotificationBus } from './infra/db/notification-bus.js';
import { registerNotificationBus } from './infra/http/register-notification-bus.js';
import * as fx from './test-support/fixtures.js';
import { type NatsServer, startNatsServer } from './test-support/nats-server.js';
import { createTestDatabase } from './test-support/test-database.js';

// The notifications the triggers and the commit-bound writes send (cache invalidations and
// wake-ups), on both engines: a write of one process reaches another process's subscriber. With
// NATS the writing process's connections record them (migrations/0093-bus-notifications.sql)
// and it publishes them after the commit: a LISTEN on PostgreSQL hears none of them, and a
// transaction rolled back publishes nothing.

const quiet = { warn: () => undefined, info: () => undefined };
const fast = { retryMinMs: 50, retryMaxMs: 200, heartbeatIntervalMs: 500 };
const barrierChannel = 'bus_notifications_barrier';

type Write = { channel: string; write(pool: Database): Promise<string> };

let db: Database;
let nats: NatsServer;
let fleet: fx.FleetFixture;
let organization: number;
beforeAll(async () => {
  db = await createTestDatabase();
  nats = await startNatsServer();
  // The fixtures' own writes notify nothing (recorded and dropped): every NOTIFY the watchers
  // hear comes from the process under test.
  db.recordNotifications(() => undefined);
  organization = await fx.createOrganization(db, 'Notified');
  fleet = await fx.createFleet(db, organization, 'Told');
});
afterAll(async () => {
  await nats?.stop();
  await db?.close();
});

const newDevice = (pool: Database) =>
  fx.createDevice(pool, fleet.id, `dev-${randomUUID().slice(0, 8)}`);

// Each moved channel, the write that notifies it and the payload expected.
const writes: Write[] = [
  {
    channel: 'flotilla_auth',
    async write(pool) {
      const user = await fx.createUser(db, `u${randomUUID().slice(0, 8)}`);
      await pool.query(`UPDATE "user" SET "jwt_secret" = $2 WHERE "id" = $1`, [
        user.userId,
        randomUUID(),
      ]);
      return `user:${user.userId}`;
    },
  },
  {
    channel: 'target_state',
    async write(pool) {
      const device = await newDevice(db);
      await pool.query(`UPDATE "device" SET "device_name" = 'renamed' WHERE "id" = $1`, [
        device.id,
      ]);
      return `d:${device.id}`;
    },
  },
  {
    channel: 'state_report',
    async write(pool) {
      const device = await newDevice(db);
      await pool.query(`UPDATE "device" SET "os_version" = 'balenaOS 9.9.9' WHERE "id" = $1`, [
        device.id,
      ]);
      return `d:${device.id}`;
    },
  },
  {
    channel: 'flotilla_mail',
    async write(pool) {
      const { rows } = await pool.query<{ id: number }>(
        `INSERT INTO "mail_message" ("recipient", "subject", "text_body", "html_body")
         VALUES ('a@example.com', 'Hello', 'text', '<p>html</p>') RETURNING "id"`,
      );
      return String(rows[0]?.id);
    },
  },
  {
    channel: 'flotilla_fleet_repository',
    async write(pool) {
      const gone = await fx.createFleet(db, organization, `gone-${randomUUID().slice(0, 6)}`);
      await pool.query(`DELETE FROM "application" WHERE "id" = $1`, [gone.id]);
      return '';
    },
  },
  {
    channel: 'flotilla_events',
    async write(pool) {
      await pool.query(
        `INSERT INTO "event_outbox" ("type", "organization", "data") VALUES ('test.event', $1, '{}')`,
        [organization],
      );
      return '';
    },
  },
  {
    channel: 'flotilla_event_stream',
    async write(pool) {
      await db.query(
        `INSERT INTO "event_outbox" ("type", "organization", "data") VALUES ('test.event', $1, '{}')`,
        [organization],
      );
      await fanOutEvents(pool, new Date());
      return '';
    },
  },
  {
    // What build-cancellation.ts sends in the transaction cancelling a release.
    channel: 'server_build_ended',
    async write(pool) {
      const payload = JSON.stringify({ release: 1, status: 'cancelled' });
      await pool.transaction(async (tx) => {
        await tx.query('SELECT flotilla_bus_notify($1, $2)', ['server_build_ended', payload]);
      });
      return payload;
    },
  },
];

// One process: its pool and bus, held by an app as the server holds them.
type Process = { pool: Database; bus: NotificationBus; app: FastifyInstance };
const startProcess = async (engine: 'postgres' | 'nats'): Promise<Process> => {
  const pool = openDatabase(db.url, { max: 4 });
  const bus =
    engine === 'nats'
      ? createNatsBus(nats.url, quiet, fast)
      : createNotificationBus(pool, quiet, fast);
  const app = Fastify();
  registerNotificationBus(app, bus, engine === 'nats' ? pool : undefined);
  await app.ready();
  return { pool, bus, app };
};

describe.each(['postgres', 'nats'] as const)('trigger notifications on %s', (engine) => {
  let writer: Process;
  let reader: Process;
  let watcher: pg.PoolClient;
  const notified: string[] = [];
  const heard = new Map<string, string[]>();
  beforeAll(async () => {
    writer = await startProcess(engine);
    reader = await startProcess(engine);
    for (const { channel } of writes) {
      heard.set(channel, []);
      const subscription = reader.bus.listen(channel, (payload) => {
        heard.get(channel)?.push(payload);
      });
      await subscription.ready;
    }
    watcher = await db.connect();
    watcher.on('notification', ({ channel, payload }) => notified.push(`${channel}|${payload}`));
    for (const channel of [...writes.map((each) => each.channel), barrierChannel]) {
      await watcher.query(`LISTEN "${channel}"`);
    }
  });
  afterAll(async () => {
    watcher?.release(true);
    for (const process of [writer, reader]) {
      await process?.app.close();
      await process?.pool.close();
    }
  });

  // Every NOTIFY committed before the barrier's has reached the watcher once the barrier has.
  const barrier = async (): Promise<void> => {
    const token = randomUUID();
    await db.query('SELECT pg_notify($1, $2)', [barrierChannel, token]);
    await expect.poll(() => notified.includes(`${barrierChannel}|${token}`)).toBe(true);
  };

  it.each(writes.map((each) => [each.channel, each] as const))(
    'delivers %s to the other process',
    async (channel, { write }) => {
      const payload = await write(writer.pool);
      await expect.poll(() => heard.get(channel)).toContain(payload);
      await barrier();
      const notifies = notified.filter((entry) => entry.startsWith(`${channel}|`));
      if (engine === 'nats') expect(notifies).toEqual([]);
      else expect(notifies).toContain(`${channel}|${payload}`);
    },
  );

  it('publishes nothing of a transaction rolled back', async () => {
    const undone = await newDevice(db);
    const kept = await newDevice(db);
    await expect(
      writer.pool.transaction(async (tx) => {
        await tx.query(`UPDATE "device" SET "device_name" = 'undone' WHERE "id" = $1`, [undone.id]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await writer.pool.query(`UPDATE "device" SET "device_name" = 'kept' WHERE "id" = $1`, [
      kept.id,
    ]);
    await expect.poll(() => heard.get('target_state')).toContain(`d:${kept.id}`);
    expect(heard.get('target_state')).not.toContain(`d:${undone.id}`);
  });
});

describe('a pool that no longer records', () => {
  it('sends NOTIFY again once its last app has closed', async () => {
    const process = await startProcess('nats');
    await process.app.close();
    const watcher = await db.connect();
    const notified: string[] = [];
    watcher.on('notification', ({ payload }) => notified.push(payload ?? ''));
    await watcher.query('LISTEN "target_state"');
    const device = await newDevice(db);
    await process.pool.query(`UPDATE "device" SET "device_name" = 'after' WHERE "id" = $1`, [
      device.id,
    ]);
    await expect.poll(() => notified).toContain(`d:${device.id}`);
    watcher.release(true);
    await process.pool.close();
  });
});
