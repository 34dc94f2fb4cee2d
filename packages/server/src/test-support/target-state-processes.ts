import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { AppContext } from '../app-context.js';
import { registerDeviceState } from '../features/device-state/register-device-state.js';
import { deviceTargetStateV3 } from '@flotilla/shared/device-protocol/target-state-v3-build';
import { etagOf } from '../features/device-state/target-state-body.js';
import { loadDeviceTarget } from '../features/device-state/target-state-query.js';
import type { Database } from '../infra/db/database.js';
import { registerODataRoutes } from '../infra/odata/register-odata-routes.js';
import { createTestApp, createTestContext, createTestNotificationBus } from './test-context.js';

// Server processes on one test database, each with its own target-state cache and LISTEN
// connection (features/device-state/target-state-cache.ts, infra/db/notification-bus.ts), for
// tests of what a device's next poll answers after a change.

export type PollingProcess = {
  name: string;
  app: FastifyInstance;
  ctx: AppContext;
  // Statements it sent to the database, the caller's key lookup aside (the actor cache's job).
  reads: () => number;
};

const countingDatabase = (db: Database): { db: Database; reads: () => number } => {
  let reads = 0;
  const counted: Database = {
    ...db,
    query: (sql, params) => {
      if (!sql.includes('"api_key"')) reads += 1;
      return db.query(sql, params);
    },
  };
  return { db: counted, reads: () => reads };
};

// Serves the device-state routes and /v7. A lost LISTEN connection is retried after
// reconnectDelayMs (not growing), which leaves a test a window with nobody listening.
export const startPollingProcesses = async (
  db: Database,
  names: readonly string[],
  reconnectDelayMs = 3000,
): Promise<PollingProcess[]> => {
  const processes: PollingProcess[] = [];
  for (const name of names) {
    const counting = countingDatabase(db);
    const notifications = createTestNotificationBus(counting.db, {
      retryMinMs: reconnectDelayMs,
      retryMaxMs: reconnectDelayMs,
    });
    const ctx = createTestContext(counting.db, { notifications });
    const app = await createTestApp(ctx, registerDeviceState, registerODataRoutes);
    processes.push({ name, app, ctx, reads: counting.reads });
  }
  return processes;
};

// One device's polls on every process, and what they must answer.
export const devicePolls = (
  db: Database,
  processes: readonly PollingProcess[],
  device: { id: number; uuid: string },
  deviceKey: string,
) => {
  const poll = (process: PollingProcess, etag?: string) =>
    process.app.inject({
      method: 'GET',
      url: `/device/v3/${device.uuid}/state`,
      headers: {
        authorization: `Bearer ${deviceKey}`,
        ...(etag === undefined ? {} : { 'if-none-match': etag }),
      },
    });

  // What a fresh build answers now.
  const fresh = async (): Promise<{ body: unknown; etag: string }> => {
    const text = JSON.stringify(deviceTargetStateV3(await loadDeviceTarget(db, device.id)));
    return { body: JSON.parse(text), etag: etagOf(text) };
  };

  // Every process holds the current ETag and answers 304 from memory (no read at all).
  const primeAll = async (): Promise<string> => {
    const { etag } = await fresh();
    for (const process of processes) {
      const first = await poll(process, etag);
      expect([200, 304], process.name).toContain(first.statusCode);
      const before = process.reads();
      const cached = await poll(process, etag);
      expect(cached.statusCode, `${process.name}: ${cached.body}`).toBe(304);
      expect(process.reads() - before, `${process.name} read the database`).toBe(0);
    }
    return etag;
  };

  const syncAll = async (): Promise<void> => {
    for (const process of processes) await process.ctx.notifications.sync();
  };

  // The poll after a change answers what a fresh build answers, on every process: 200 with the
  // new body when it changed, 304 when it did not.
  const expectCurrent = async (
    name: string,
    previous: string,
    changesBody: boolean,
  ): Promise<void> => {
    const now = await fresh();
    expect(now.etag !== previous, `${name}: whether the body changed`).toBe(changesBody);
    for (const process of processes) {
      const response = await poll(process, previous);
      if (changesBody) {
        expect(response.statusCode, `${name} on ${process.name}`).toBe(200);
        expect(response.headers.etag).toBe(now.etag);
        expect(response.json()).toEqual(now.body);
      } else {
        expect(response.statusCode, `${name} on ${process.name}`).toBe(304);
      }
    }
  };

  return { poll, fresh, primeAll, syncAll, expectCurrent };
};
