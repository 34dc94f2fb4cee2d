import type { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createNatsBus } from '../../infra/bus/nats-bus.js';
import type { Database } from '../../infra/db/database.js';
import type { NotificationBus } from '../../infra/db/notification-bus.js';
import * as fx from '../../test-support/fixtures.js';
import { type NatsServer, startNatsServer } from '../../test-support/nats-server.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createLogHub, type LiveListener, type LogHub, toNdjson } from './log-hub.js';
import { createLogIntake, type LogIntake } from './log-intake.js';
import type { IngestedLine, LogLineOut } from './log-line.js';
import { insertLogLines } from './log-store.js';
import { openLogSubscription, type LogSubscription } from './log-subscription.js';
import { createLogWriter, type LogWriter } from './log-writer.js';

// Lines relayed on NATS to another process's streams before they are stored (log-relay.ts), and
// the stream's seam between relayed lines and the rows it reads (log-subscription.ts).

const quiet = { warn: () => undefined, info: () => undefined };

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

const stored = (message: string) => ({
  message,
  timestamp: 1,
  isSystem: false,
  isStdErr: false,
  serviceId: null,
});

describe('relayed log lines', () => {
  let db: Database;
  let deviceId: number;
  const subscriptions: LogSubscription[] = [];
  const cleanUps: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    const organization = await fx.createOrganization(db, 'Relays');
    const fleet = await fx.createFleet(db, organization, 'Relayed');
    deviceId = (await fx.createDevice(db, fleet.id, 'relayed')).id;
  });
  afterEach(async () => {
    for (const subscription of subscriptions.splice(0)) subscription.close();
    for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
    await db.query('DELETE FROM "device_log"');
  });
  afterAll(async () => {
    await db?.close();
  });

  const subscribe = (hub: LogHub, intake: LogIntake, count: number, settled = Promise.resolve()) =>
    openLogSubscription(
      {
        db,
        hub,
        intake,
        settled: () => settled,
        onError: (error) => {
          throw error;
        },
      },
      { deviceId, count, start: undefined, keepAliveMs: 60_000 },
    ).then((subscription) => {
      subscriptions.push(subscription);
      return subscription;
    });

  describe('between two processes on NATS', () => {
    let nats: NatsServer;
    beforeAll(async () => {
      nats = await startNatsServer();
    });
    afterAll(async () => {
      await nats?.stop();
    });

    type Process = { bus: NotificationBus; hub: LogHub; intake: LogIntake; writer: LogWriter };
    const startProcess = async (origin: number, flushMs: number): Promise<Process> => {
      const bus = createNatsBus(nats.url, quiet, { retryMinMs: 50, retryMaxMs: 200 });
      const hub = createLogHub(bus, origin);
      const writer = createLogWriter({
        db,
        origin,
        retention: 1000,
        trimSlack: 250,
        lanes: 1,
        flushMs,
        maxBatchLines: 10_000,
        maxQueuedLines: 100_000,
        retryMinMs: 20,
        retryMaxMs: 200,
        log: quiet,
        onError: (error) => {
          throw error;
        },
        announce: (channel, payloads) => {
          for (const payload of payloads) void bus.publish(channel, payload);
        },
      });
      const intake = createLogIntake({ origin, hub, writer, now: () => new Date() });
      await bus.start();
      cleanUps.push(async () => {
        hub.close();
        await writer.close();
        await bus.stop();
      });
      return { bus, hub, intake, writer };
    };

    it("shows another process's lines before they are stored, and each once when they are", async () => {
      // Storage waits a minute unless the test settles it.
      const ingesting = await startProcess(501, 60_000);
      const serving = await startProcess(502, 60_000);
      const stream = reader(
        (await subscribe(serving.hub, serving.intake, 0, serving.writer.settled(deviceId))).stream,
      );
      // The tail's announcement is delivered before the ingesting process's own token.
      await serving.bus.sync();
      await ingesting.bus.sync();
      ingesting.intake.accept(deviceId, [stored('r1'), stored('r2')]);
      expect(await stream.atLeast(2)).toEqual(['r1', 'r2']);
      const rows = await db.query('SELECT 1 FROM "device_log" WHERE "device" = $1', [deviceId]);
      expect(rows.rowCount).toBe(0);
      // Stored now: the announcement makes the stream read them, and it skips them.
      await ingesting.writer.close();
      await ingesting.bus.sync();
      ingesting.intake.accept(deviceId, [stored('r3')]);
      expect(await stream.atLeast(3)).toEqual(['r1', 'r2', 'r3']);
    }, 30_000);
  });

  describe('the seam', () => {
    // A hub that only hands the stream's listener to the test.
    const fakeHub = (): { hub: LogHub; listener: () => LiveListener } => {
      let captured: LiveListener | undefined;
      return {
        hub: {
          subscribe: (_deviceId, listener) => {
            captured = listener;
            return () => undefined;
          },
          publish: () => undefined,
          close: () => undefined,
        },
        listener: () => {
          if (!captured) throw new Error('no subscription yet');
          return captured;
        },
      };
    };
    const here: LogIntake = { origin: 1, accept: () => undefined, lastSeq: () => 0 };
    const received = (seq: number, message: string): IngestedLine => ({
      deviceId,
      createdAt: 1000 + seq,
      seq,
      line: stored(message),
    });
    const batch = (...lines: IngestedLine[]) => ({ lines, text: () => toNdjson(lines) });

    it('shows relayed lines that continue the stream at once, waits for the rows to fill a gap', async () => {
      const origin = 900;
      await insertLogLines(db, origin, [received(1, 's1'), received(2, 's2'), received(3, 's3')]);
      const { hub, listener } = fakeHub();
      const stream = reader((await subscribe(hub, here, 2)).stream);
      expect(await stream.atLeast(2)).toEqual(['s2', 's3']);
      listener().relayed(origin, 3, batch(received(4, 's4')));
      expect(await stream.atLeast(3)).toEqual(['s2', 's3', 's4']);
      // s5 was lost on the way: s6 waits for it.
      listener().relayed(origin, 5, batch(received(6, 's6')));
      await insertLogLines(db, origin, [received(4, 's4'), received(5, 's5'), received(6, 's6')]);
      listener().stored();
      expect(await stream.atLeast(5)).toEqual(['s2', 's3', 's4', 's5', 's6']);
      listener().relayed(origin, 6, batch(received(7, 's7')));
      expect(await stream.atLeast(6)).toEqual(['s2', 's3', 's4', 's5', 's6', 's7']);
    });

    it("leaves a process's lines stored before the stream opened out, first relayed or not", async () => {
      const origin = 901;
      await insertLogLines(db, origin, [received(1, 'p1'), received(2, 'p2')]);
      const { hub, listener } = fakeHub();
      const stream = reader((await subscribe(hub, here, 0)).stream);
      // A late relay of a stored line, then the next one.
      listener().relayed(origin, 1, batch(received(2, 'p2')));
      listener().relayed(origin, 2, batch(received(3, 'p3')));
      expect(await stream.atLeast(1)).toEqual(['p3']);
      await insertLogLines(db, origin, [received(3, 'p3'), received(4, 'p4')]);
      listener().stored();
      expect(await stream.atLeast(2)).toEqual(['p3', 'p4']);
    });
  });
});
