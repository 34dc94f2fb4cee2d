import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import { startTcpProxy, type TcpProxy } from '../../test-support/tcp-proxy.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import type { IngestedLine } from './log-line.js';
import { createLogWriter, type LogWriterOptions } from './log-writer.js';
import { waitFor } from '../../test-support/wait-for.js';

const origin = 4242;

const recordingLog = () => {
  const lines: { level: string; message: string; details: object }[] = [];
  return {
    lines,
    warn: (details: object, message: string) => lines.push({ level: 'warn', message, details }),
    info: (details: object, message: string) => lines.push({ level: 'info', message, details }),
  };
};

describe('the log writer', () => {
  let db: Database;
  let devices: number[];
  let seq = 0;

  const lines = (deviceId: number, ...messages: string[]): IngestedLine[] =>
    messages.map((message) => ({
      deviceId,
      createdAt: 1_000,
      seq: ++seq,
      line: { message, timestamp: 1, isSystem: false, isStdErr: false, serviceId: null },
    }));

  const stored = async (deviceId: number): Promise<string[]> => {
    const { rows } = await db.query<{ message: string }>(
      'SELECT "message" FROM "device_log" WHERE "device" = $1 ORDER BY "id"',
      [deviceId],
    );
    return rows.map((row) => row.message);
  };

  const options = (overrides: Partial<LogWriterOptions> = {}): LogWriterOptions => ({
    db,
    origin,
    retention: 1000,
    trimSlack: 100,
    lanes: 2,
    flushMs: 10,
    maxBatchLines: 1000,
    maxQueuedLines: 100_000,
    retryMinMs: 20,
    retryMaxMs: 100,
    log: recordingLog(),
    onError: (error) => {
      throw error;
    },
    ...overrides,
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    const organization = await fx.createOrganization(db, 'Writers');
    const fleet = await fx.createFleet(db, organization, 'Scribes');
    devices = [];
    for (let index = 0; index < 6; index++) {
      devices.push((await fx.createDevice(db, fleet.id, `scribe-${index}`)).id);
    }
  });
  afterAll(async () => {
    await db?.close();
  });

  it("keeps each device's lines in order with several small batches in flight", async () => {
    const writer = createLogWriter(options({ lanes: 3, maxBatchLines: 3 }));
    const expected = new Map<number, string[]>();
    for (let round = 0; round < 10; round++) {
      for (const deviceId of devices) {
        const messages = [`${deviceId}-${round}-a`, `${deviceId}-${round}-b`];
        writer.write(lines(deviceId, ...messages));
        expected.set(deviceId, [...(expected.get(deviceId) ?? []), ...messages]);
      }
    }
    await Promise.all(devices.map((deviceId) => writer.settled(deviceId)));
    for (const deviceId of devices) expect(await stored(deviceId)).toEqual(expected.get(deviceId));
    const { rows } = await db.query<{ origin: number; ordered: boolean }>(
      `SELECT min("origin") AS "origin",
              bool_and("origin_seq" > coalesce("previous", 0)) AS "ordered"
         FROM (SELECT "origin", "origin_seq",
                      lag("origin_seq") OVER (PARTITION BY "device" ORDER BY "id") AS "previous"
                 FROM "device_log") l`,
    );
    expect(rows).toEqual([{ origin, ordered: true }]);
    await writer.close();
  });

  it('trims a device back to the retention once it has trimSlack lines more', async () => {
    const deviceId = devices[0] ?? 0;
    await db.query('DELETE FROM "device_log"');
    const writer = createLogWriter(options({ retention: 10, trimSlack: 5 }));
    const write = async (count: number): Promise<number> => {
      writer.write(lines(deviceId, ...Array.from({ length: count }, (_, n) => `line ${n}`)));
      await writer.settled(deviceId);
      return (await stored(deviceId)).length;
    };
    expect(await write(10)).toBe(10);
    // Five more since the last trim: within the slack.
    expect(await write(5)).toBe(15);
    // The sixth: trimmed back to the newest ten.
    expect(await write(1)).toBe(10);
    await writer.close();
  });

  it('drops the oldest lines beyond its bound, and says how many once it keeps up again', async () => {
    const deviceId = devices[1] ?? 0;
    const log = recordingLog();
    const writer = createLogWriter(
      options({ log, lanes: 1, flushMs: 60_000, maxBatchLines: 5, maxQueuedLines: 10 }),
    );
    writer.write(lines(deviceId, ...Array.from({ length: 25 }, (_, n) => `line ${n + 1}`)));
    await writer.settled(deviceId);
    expect(await stored(deviceId)).toEqual(Array.from({ length: 10 }, (_, n) => `line ${16 + n}`));
    expect(log.lines).toEqual([
      {
        level: 'warn',
        message: 'device logs: too many lines wait for the database; dropping the oldest',
        details: { limit: 10 },
      },
      {
        level: 'warn',
        message: 'device logs: storage keeps up again; lines were dropped meanwhile',
        details: { dropped: 15 },
      },
    ]);
    await writer.close();
  });

  describe('with the database unavailable', () => {
    let proxy: TcpProxy;
    let served: Database;

    beforeAll(async () => {
      proxy = await startTcpProxy(db.url);
      served = openDatabase(proxy.via(db.url), { max: 2, connectTimeoutMs: 2_000 });
    });
    afterAll(async () => {
      await served?.close();
      await proxy?.close();
    });

    it('holds lines, drops the oldest beyond its bound, and stores the rest once it is back', async () => {
      const deviceId = devices[2] ?? 0;
      const log = recordingLog();
      const writer = createLogWriter(
        options({ db: served, log, lanes: 1, maxBatchLines: 4, maxQueuedLines: 10 }),
      );
      proxy.cut();
      writer.write(lines(deviceId, 'line 1', 'line 2', 'line 3', 'line 4', 'line 5'));
      // Resolves once the writer knows the database is gone: the lines are held meanwhile.
      await writer.settled(deviceId);
      expect(log.lines.map((line) => line.message)).toContain(
        'device logs: the database is unavailable; keeping lines in memory until it is back',
      );
      for (let next = 6; next <= 25; next += 5) {
        writer.write(lines(deviceId, ...Array.from({ length: 5 }, (_, n) => `line ${next + n}`)));
      }
      expect(log.lines.map((line) => line.message)).toContain(
        'device logs: too many lines wait for the database; dropping the oldest',
      );
      proxy.restore();
      await waitFor('the held lines', async () => (await stored(deviceId)).length === 10);
      expect(await stored(deviceId)).toEqual(
        Array.from({ length: 10 }, (_, n) => `line ${16 + n}`),
      );
      await waitFor('the recovery to be logged', async () =>
        log.lines.some((line) => line.message === 'device logs: storing lines again'),
      );
      expect(log.lines.find((line) => line.level === 'info')?.details).toEqual({ dropped: 15 });
      await writer.close();
    }, 30_000);

    it('drops what it holds when closed while the database is unavailable', async () => {
      const deviceId = devices[3] ?? 0;
      const log = recordingLog();
      const writer = createLogWriter(options({ db: served, log, lanes: 1 }));
      proxy.cut();
      writer.write(lines(deviceId, 'lost'));
      await writer.close();
      proxy.restore();
      expect(await stored(deviceId)).toEqual([]);
      expect(log.lines.at(-1)).toEqual({
        level: 'warn',
        message:
          'device logs: closing while the database is unavailable; these lines are not stored',
        details: { lines: 1 },
      });
    }, 30_000);
  });
});
