import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../infra/db/database.js';
import { startTcpProxy, type TcpProxy } from '../../test-support/tcp-proxy.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createLogHub, type LogHub } from './log-hub.js';
import { logChannel } from './log-store.js';

// Resolves when `count()` reaches `target` (checked on every `tick`), rejects after `ms`.
const reaches = (
  count: () => number,
  target: number,
  ticks: Set<() => void>,
  ms: number,
): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      ticks.delete(check);
      reject(new Error(`stayed at ${count()} instead of ${target} for ${ms} ms`));
    }, ms);
    function check(): void {
      if (count() < target) return;
      clearTimeout(timer);
      ticks.delete(check);
      resolve();
    }
    ticks.add(check);
    check();
  });

describe('the log hub losing its LISTEN connection', () => {
  let direct: Database;
  let proxy: TcpProxy;
  let served: Database;
  let hub: LogHub;
  const errors: unknown[] = [];
  const ticks = new Set<() => void>();
  const tick = (): void => {
    for (const check of [...ticks]) check();
  };

  beforeAll(async () => {
    direct = await createTestDatabase();
    proxy = await startTcpProxy(direct.url);
    served = openDatabase(proxy.via(direct.url), { max: 2, connectTimeoutMs: 2_000 });
    hub = createLogHub(served, (error) => {
      errors.push(error);
      tick();
    });
  });

  afterAll(async () => {
    await hub?.close();
    await served?.close();
    await proxy?.close();
    await direct?.close();
  });

  it('keeps trying until the database is back, then hears other processes again', async () => {
    let signals = 0;
    const unsubscribe = await hub.subscribe(42, () => {
      signals += 1;
      tick();
    });
    await direct.query('SELECT pg_notify($1, $2)', [logChannel, '42']);
    await reaches(() => signals, 1, ticks, 10_000);

    proxy.cut();
    // The lost connection, then at least one reconnect that failed while cut off.
    await reaches(() => errors.length, 2, ticks, 15_000);
    proxy.restore();
    // Listening again: the reconnect signals every stream to catch up, then NOTIFY arrives.
    await reaches(() => signals, 2, ticks, 15_000);
    const afterReconnect = signals;
    await direct.query('SELECT pg_notify($1, $2)', [logChannel, '42']);
    await reaches(() => signals, afterReconnect + 1, ticks, 10_000);
    expect(signals).toBeGreaterThan(afterReconnect);
    unsubscribe();
  }, 60_000);
});
