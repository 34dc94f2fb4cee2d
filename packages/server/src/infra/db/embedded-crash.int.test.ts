import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../start-server.js';
import {
  countOf,
  prepareWriteTarget,
  startWriteLoad,
  waitUntilReady,
  type WriteTarget,
} from '../../test-support/write-load.js';
import { loadConfig } from '../config/config.js';

type Logged = { level: 'debug' | 'info' | 'warn' | 'error'; message: string };

// The whole server on its own embedded PostgreSQL (whatever DATABASE_URL says: this is about the
// embedded one), in this process: an unhandled 'error' event would end the test run.
describe('the embedded PostgreSQL dying under load', () => {
  let dataDir: string;
  let server: RunningServer;
  let target: WriteTarget;
  const logged: Logged[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-crash-'));
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      FLOTILLA_DATA_DIR: dataDir,
      FLOTILLA_DEMO: 'off',
      FLOTILLA_ADMIN_PASSWORD: 'crash-test-password',
      FLOTILLA_LOG_LEVEL: 'silent',
    });
    server = await startServer(config, () => undefined, {
      debug: (message) => logged.push({ level: 'debug', message }),
      info: (message) => logged.push({ level: 'info', message }),
      warn: (message) => logged.push({ level: 'warn', message }),
      error: (message) => logged.push({ level: 'error', message }),
    });
    target = await prepareWriteTarget(server.ctx, server.ctx.db, server.url);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('is restarted, and every write acknowledged before the crash is still there', async () => {
    const load = startWriteLoad(target, 6);
    try {
      await load.until(() => load.acknowledged.length >= 30, 'writes before the crash', 30_000);
      const postmaster = server.embeddedPostgresPid();
      if (postmaster === undefined) throw new Error('no embedded PostgreSQL');
      const acknowledgedBefore = load.acknowledged.length;
      process.kill(postmaster, 'SIGKILL');
      // Writes fail with 503 while it is down, then succeed again without anyone's help.
      await load.until(() => countOf(load, 503) > 0, 'a 503 while PostgreSQL is down', 30_000);
      const acknowledgedDuring = load.acknowledged.length;
      await load.until(
        () => load.acknowledged.length >= acknowledgedDuring + 30,
        'writes after the restart',
        60_000,
      );
      expect(load.acknowledged.length).toBeGreaterThan(acknowledgedBefore);
      expect(server.embeddedPostgresPid()).not.toBe(postmaster);
    } finally {
      await load.stop();
    }
    expect(load.unexpected).toEqual([]);
    await waitUntilReady(server.url, 30_000);

    const { rows } = await server.ctx.db.query<{ tag_key: string }>(
      'SELECT "tag_key" FROM "application_tag" WHERE "application" = $1',
      [target.fleetId],
    );
    const stored = new Set(rows.map((row) => row.tag_key));
    expect(load.acknowledged.filter((key) => !stored.has(key))).toEqual([]);

    const warnings = logged.filter((line) => line.level === 'warn').map((line) => line.message);
    expect(warnings.some((line) => line.includes('PostgreSQL stopped unexpectedly'))).toBe(true);
    expect(logged.some((line) => line.message.startsWith('PostgreSQL is running again'))).toBe(
      true,
    );
    expect(logged.filter((line) => line.level === 'error')).toEqual([]);
  }, 180_000);
});
