import type { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../infra/db/database.js';
import {
  type BusState,
  createNotificationBus,
  type NotificationBus,
} from '../../infra/db/notification-bus.js';
import * as fx from '../../test-support/fixtures.js';
import { startTcpProxy, type TcpProxy } from '../../test-support/tcp-proxy.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createLogHub, type LogHub } from './log-hub.js';
import { createLogIntake, type LogIntake } from './log-intake.js';
import type { LogLineOut } from './log-line.js';
import { openLogSubscription, type LogSubscription } from './log-subscription.js';
import { createLogWriter, type LogWriter, type LogWriterOptions } from './log-writer.js';

// The seam between history and live lines, at the level of the parts: a "process" is an intake,
// a hub and a writer with its own origin; two of them on one database stand for two servers.

const quiet = { warn: () => undefined, info: () => undefined };

type Process = { intake: LogIntake; hub: LogHub; writer: LogWriter; bus: NotificationBus };

const stateReached = (bus: NotificationBus, wanted: BusState): Promise<void> =>
  new Promise((resolve) => {
    if (bus.state() === wanted) return resolve();
    const stop = bus.onStateChange((state) => {
      if (state !== wanted) return;
      stop();
      resolve();
    });
  });

// What a subscription sent, as it arrives.
const reader = (stream: PassThrough) => {
  let text = '';
  let wake: (() => void) | undefined;
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    text += chunk;
    wake?.();
  });
  const messages = (): string[] =>
    text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => (JSON.parse(line) as LogLineOut).message);
  return {
    messages,
    // Resolves once `count` lines arrived (rejects after a while, naming what did).
    atLeast: (count: number): Promise<string[]> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`got ${JSON.stringify(messages())}, wanted ${count} lines`)),
          10_000,
        );
        const check = (): void => {
          if (messages().length < count) return;
          clearTimeout(timer);
          wake = undefined;
          resolve(messages());
        };
        wake = check;
        check();
      }),
  };
};

const line = (message: string) => ({
  message,
  timestamp: 1,
  isSystem: false,
  isStdErr: false,
  serviceId: null,
});
const lines = (...messages: string[]) => messages.map(line);

describe('a live log stream', () => {
  let db: Database;
  let deviceId: number;
  const processes: Process[] = [];
  const subscriptions: LogSubscription[] = [];

  const startProcess = async (
    origin: number,
    writerOptions: Partial<LogWriterOptions> = {},
    database: Database = db,
  ): Promise<Process> => {
    const bus = createNotificationBus(database, quiet, { retryMinMs: 50, retryMaxMs: 500 });
    const hub = createLogHub(bus, origin);
    const writer = createLogWriter({
      db: database,
      origin,
      retention: 1000,
      trimSlack: 250,
      lanes: 2,
      flushMs: 10,
      maxBatchLines: 2000,
      maxQueuedLines: 100_000,
      retryMinMs: 20,
      retryMaxMs: 200,
      log: quiet,
      onError: (error) => {
        throw error;
      },
      ...writerOptions,
    });
    const intake = createLogIntake({ origin, hub, writer, now: () => new Date() });
    await bus.start();
    await stateReached(bus, 'listening');
    const started = { intake, hub, writer, bus };
    processes.push(started);
    return started;
  };

  const subscribe = (on: Process, count: number, database: Database = db) =>
    openLogSubscription(
      {
        db: database,
        hub: on.hub,
        intake: on.intake,
        settled: (device) => on.writer.settled(device),
        onError: (error) => {
          throw error;
        },
      },
      { deviceId, count, start: undefined, keepAliveMs: 60_000 },
    ).then((subscription) => {
      subscriptions.push(subscription);
      return subscription;
    });

  beforeAll(async () => {
    db = await createTestDatabase();
    const organization = await fx.createOrganization(db, 'Tails');
    const fleet = await fx.createFleet(db, organization, 'Tailed');
    deviceId = (await fx.createDevice(db, fleet.id, 'tailed')).id;
  });
  afterEach(async () => {
    for (const subscription of subscriptions.splice(0)) subscription.close();
    for (const { hub, writer, bus } of processes.splice(0)) {
      hub.close();
      await writer.close();
      await bus.stop();
    }
    await db.query('DELETE FROM "device_log"');
  });
  afterAll(async () => {
    await db?.close();
  });

  it('sends the history, then live lines, none lost or twice at the seam', async () => {
    // Storage waits for six lines (or a minute): the test decides what is stored when.
    const here = await startProcess(101, { flushMs: 60_000, maxBatchLines: 6 });
    here.intake.accept(deviceId, lines('a1', 'a2', 'a3', 'a4', 'a5', 'a6'));
    await here.writer.settled(deviceId);
    // Received, not stored yet: history all the same.
    here.intake.accept(deviceId, lines('b1', 'b2', 'b3'));
    const opening = subscribe(here, 100);
    // Received after the subscription: live. They complete a batch, so they are stored (with
    // b1-b3) before the history is read, and must not come twice.
    here.intake.accept(deviceId, lines('b4', 'b5', 'b6'));
    const stream = reader((await opening).stream);
    // Live before it is stored.
    here.intake.accept(deviceId, lines('c1'));
    expect(await stream.atLeast(13)).toEqual([
      ...['a1', 'a2', 'a3', 'a4', 'a5', 'a6'],
      ...['b1', 'b2', 'b3', 'b4', 'b5', 'b6'],
      'c1',
    ]);
  });

  it('with no history asked, starts with the lines received after subscribing', async () => {
    const here = await startProcess(102, { flushMs: 60_000, maxBatchLines: 6 });
    here.intake.accept(deviceId, lines('x1', 'x2', 'x3'));
    const opening = subscribe(here, 0);
    here.intake.accept(deviceId, lines('x4', 'x5', 'x6'));
    const stream = reader((await opening).stream);
    here.intake.accept(deviceId, lines('x7'));
    expect(await stream.atLeast(4)).toEqual(['x4', 'x5', 'x6', 'x7']);
  });

  it("gets another process's lines in order, once each, across the seam", async () => {
    const ingesting = await startProcess(201);
    const serving = await startProcess(202);
    const sent: string[] = [];
    const send = (count: number): void => {
      const batch = Array.from({ length: count }, () => `r${sent.length + 1}`);
      for (const message of batch) sent.push(message);
      ingesting.intake.accept(deviceId, lines(...batch));
    };
    send(20);
    await ingesting.writer.settled(deviceId);
    send(5);
    const opening = subscribe(serving, 1000);
    send(5);
    const stream = reader((await opening).stream);
    for (let round = 0; round < 5; round++) {
      send(4);
      await ingesting.writer.settled(deviceId);
    }
    expect(await stream.atLeast(sent.length)).toEqual(sent);
    // Nothing more comes: the next line is the next one.
    send(1);
    expect(await stream.atLeast(sent.length)).toEqual(sent);
  });

  describe('with the database unavailable', () => {
    let proxy: TcpProxy;
    let served: Database;

    beforeAll(async () => {
      proxy = await startTcpProxy(db.url);
      served = openDatabase(proxy.via(db.url), { max: 4, connectTimeoutMs: 2_000 });
    });
    afterAll(async () => {
      await served?.close();
      await proxy?.close();
    });

    it("still gets this process's lines at once, and stores them once it is back", async () => {
      const here = await startProcess(301, {}, served);
      const elsewhere = await startProcess(302);
      const stream = reader((await subscribe(here, 0, served)).stream);
      here.intake.accept(deviceId, lines('before'));
      expect(await stream.atLeast(1)).toEqual(['before']);
      await here.writer.settled(deviceId);
      proxy.cut();
      await stateReached(here.bus, 'down');
      here.intake.accept(deviceId, lines('during 1', 'during 2'));
      expect(await stream.atLeast(3)).toEqual(['before', 'during 1', 'during 2']);
      proxy.restore();
      await stateReached(here.bus, 'listening');
      const stored = async (): Promise<number> =>
        (await db.query('SELECT 1 FROM "device_log"')).rowCount;
      const deadline = Date.now() + 10_000;
      while ((await stored()) < 3) {
        if (Date.now() > deadline) throw new Error('the held lines were not stored');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // Another process's line comes after whatever catching up the reconnection caused.
      elsewhere.intake.accept(deviceId, lines('elsewhere'));
      expect(await stream.atLeast(4)).toEqual(['before', 'during 1', 'during 2', 'elsewhere']);
    }, 30_000);
  });
});
