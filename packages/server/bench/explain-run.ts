import type { AppContext } from '../src/app-context.js';
import { loadConfig } from '../src/infra/config/config.js';
import { openDatabase } from '../src/infra/db/database.js';
import { createNotificationBus } from '../src/infra/db/notification-bus.js';
import { createDeviceContacts } from '../src/features/heartbeat/device-contacts.js';
import { createHookRegistry } from '../src/infra/odata/hooks.js';
import { v7Model } from '../src/model/v7-model.js';
import { buildServer } from '../src/server.js';
import { createStatementRecorder, explainStatements } from './explain.js';
import type { BenchEnv, Scenario } from './scenario.js';

// BENCH_EXPLAIN=1: before measuring, each scenario's sample request is sent once to a Flotilla
// server built in this process with a statement recorder in front of its database, and the
// statements it ran are printed with EXPLAIN ANALYZE (in rolled-back transactions).

export const explainScenarios = async (
  env: BenchEnv,
  jwtSecret: string,
  scenarios: readonly Scenario[],
): Promise<void> => {
  const database = openDatabase(env.databaseUrl, { max: 4 });
  const recorder = createStatementRecorder();
  const ctx: AppContext = {
    db: recorder.database(database),
    config: { ...loadConfig({ FLOTILLA_LOG_LEVEL: 'silent' }), loginRateLimitPerMinute: 1000 },
    model: v7Model,
    hooks: createHookRegistry(),
    now: () => new Date(),
    jwtSecret: new TextEncoder().encode(jwtSecret),
    notifications: createNotificationBus(database, {
      warn: (message) => env.log(message),
      info: () => undefined,
    }),
    contacts: createDeviceContacts(database),
    // This app's data directory (the default ./data) is not the bench database's: no sweeps.
    installation: { kind: 'mismatch', reason: 'explain run' },
  };
  const app = buildServer(ctx);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    for (const scenario of scenarios) {
      const sample = scenario.sample?.(env);
      if (!sample) continue;
      const statements = await recorder.record(async () => {
        const response = await fetch(`${url}${sample.path}`, {
          method: sample.method,
          headers: sample.headers,
          ...(sample.body === undefined ? {} : { body: sample.body }),
        });
        await response.arrayBuffer();
      });
      env.log(`\n===== EXPLAIN ANALYZE: ${scenario.id} (${sample.method} ${sample.path}) =====`);
      env.log(await explainStatements(env.db, statements));
    }
  } finally {
    await app.close();
    await database.close();
  }
};
