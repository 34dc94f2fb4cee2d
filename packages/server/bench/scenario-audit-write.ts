import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { registerAuditLogHooks } from '../src/features/audit-log/audit-log-hooks.js';
import { registerDeviceHooks } from '../src/features/devices/device-hooks.js';
import type { Actor } from '../src/infra/auth/actor.js';
import { loadConfig } from '../src/infra/config/config.js';
import { type Database, openDatabase } from '../src/infra/db/database.js';
import { createApp } from '../src/infra/http/create-app.js';
import { createHookRegistry } from '../src/infra/odata/hooks.js';
import { registerODataRoutes } from '../src/infra/odata/register-odata-routes.js';
import { v7Model } from '../src/model/v7-model.js';
import type { BenchEnv, Measure, Scenario, Side, Window } from './scenario.js';

// Issue 34: what the audit log costs a /v7 write. Two engines in this process on the bench
// database, the same device hooks, one with the audit log's write observer (the row's old and
// new values from the UPDATE itself, one INSERT of the record) and one without: each PATCHes
// devices' notes as the seeded organization administrator, 8 writes in flight on distinct
// devices, for the window. "flotilla" is the engine with the audit log, "reference" the one
// without; the row is their ratio (goal: at most 10 % slower).

const concurrency = 8;

type Engine = { app: FastifyInstance; db: Database };
let engines: Record<Side, Engine> | undefined;

const adminActor = (env: BenchEnv): Actor => ({
  kind: 'user',
  userId: env.seed.admin.userId,
  actorId: env.seed.admin.actorId,
  platformPermissions: [],
  via: 'session',
  twoFactorPending: false,
  emailVerificationPending: false,
});

const engine = async (env: BenchEnv, audited: boolean): Promise<Engine> => {
  const db = openDatabase(env.databaseUrl, { max: concurrency });
  const hooks = createHookRegistry();
  registerDeviceHooks(hooks);
  if (audited) registerAuditLogHooks(hooks);
  const config = loadConfig({ FLOTILLA_LOG_LEVEL: 'silent' });
  const actor = adminActor(env);
  const app = createApp({ logLevel: 'silent', resolveActor: async () => actor });
  registerODataRoutes(app, { db, config, model: v7Model, hooks, now: () => new Date() });
  await app.ready();
  return { app, db };
};

const measureWrites = async (
  target: Engine,
  deviceIds: readonly number[],
  window: Window,
): Promise<Measure> => {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let counter = 0;
  const run = async (worker: number, until: number, record: boolean): Promise<void> => {
    while (performance.now() < until) {
      const id = deviceIds[(worker + concurrency * counter++) % deviceIds.length] ?? 1;
      const started = performance.now();
      const response = await target.app.inject({
        method: 'PATCH',
        url: `/v7/device(${id})`,
        headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
        payload: { note: `bench ${counter}` },
      });
      if (!record) continue;
      if (response.statusCode === 200) latencies.push(performance.now() - started);
      else {
        errors += 1;
        firstError ??= `${response.statusCode} ${response.body.slice(0, 200)}`;
      }
    }
  };
  const workers = (until: number, record: boolean) =>
    Promise.all(Array.from({ length: concurrency }, (_, worker) => run(worker, until, record)));
  await workers(performance.now() + window.warmupMs, false);
  const started = performance.now();
  await workers(started + window.durationMs, true);
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (share: number) => latencies[Math.floor(share * (latencies.length - 1))] ?? Number.NaN;
  return {
    metrics: { opsPerSecond: latencies.length / seconds, p50Ms: at(0.5), p99Ms: at(0.99) },
    requests: latencies.length + errors,
    errors,
    firstError,
  };
};

// Devices of the administrator's fleets, spread so concurrent writes never wait on a row lock.
const writtenDevices = (env: BenchEnv): number[] =>
  env.seed.fleets.flatMap((fleet) => fleet.deviceIds.slice(0, 2)).slice(0, 400);

export const auditWriteScenario: Scenario = {
  id: 'audit-write',
  rows: [
    {
      name: '/v7 device PATCH with the audit log (vs without)',
      metric: 'opsPerSecond',
      unit: 'req/s',
      goal: { kind: 'ratio', better: 'higher', target: 0.9 },
      goalText: '≤ 10 % slower',
    },
  ],
  async prepare(env) {
    engines = { flotilla: await engine(env, true), reference: await engine(env, false) };
  },
  async cleanUp() {
    for (const target of Object.values(engines ?? {})) {
      await target.app.close();
      await target.db.close();
    }
    engines = undefined;
  },
  measure(side, env, window) {
    if (!engines) throw new Error('the audit-write engines were not started');
    return measureWrites(engines[side], writtenDevices(env), window);
  },
};
