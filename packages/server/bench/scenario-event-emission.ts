import type pg from 'pg';
import type { Scenario } from './scenario.js';
import { changingReportDevices } from './scenario-state-report-changing.js';

// The cost of event emission on the state-report path: the same changing state reports
// (workload-changing-report.ts: update_status and the overall status change on most steps, so
// most reports emit device events) sent to Flotilla twice per round, once as it ships and once
// with the device's event triggers disabled (the "reference" side here is Flotilla without
// emission). The ratio is the emission's whole cost: the triggers, the outbox rows, and the
// dispatcher's fan-out reading them. The triggers themselves are the migrations'; this only
// switches them off and on between the sides' runs (sides never run at once).

// The device table's triggers that emit events (found by their function, whatever their names).
const eventTriggers = async (db: pg.Pool): Promise<string[]> => {
  const { rows } = await db.query<{ name: string }>(
    `SELECT t."tgname" AS "name" FROM pg_trigger t JOIN pg_proc p ON p."oid" = t."tgfoid"
      WHERE t."tgrelid" = 'public.device'::regclass AND NOT t."tgisinternal"
        AND p."proname" LIKE '%event%'`,
  );
  return rows.map((row) => row.name);
};

const setEmission = async (db: pg.Pool, on: boolean): Promise<void> => {
  for (const name of await eventTriggers(db)) {
    await db.query(
      `ALTER TABLE "device" ${on ? 'ENABLE' : 'DISABLE'} TRIGGER "${name.replace(/"/g, '""')}"`,
    );
  }
};

export const eventEmissionScenario: Scenario = {
  id: 'event-emission',
  rows: [
    {
      name: 'state reports changing evented fields (update/overall status): events on vs off',
      metric: 'opsPerSecond',
      unit: 'req/s',
      goal: { kind: 'ratio', better: 'higher', target: 0.95 },
      goalText: '≥ 0.95x (≤ 5 % slower)',
    },
    {
      name: 'state reports changing evented fields: p99, events on vs off',
      metric: 'p99Ms',
      unit: 'ms',
      goal: { kind: 'ratio', better: 'lower', target: 1.05 },
      goalText: '≤ 1.05x',
    },
  ],
  async prepare(env) {
    const names = await eventTriggers(env.db);
    if (names.length === 0) throw new Error('no event trigger on the device table to switch');
    env.log(`event emission: switching ${names.join(', ')}`);
  },
  async cleanUp(env) {
    await setEmission(env.db, true);
  },
  async measure(side, env, window) {
    await setEmission(env.db, side === 'flotilla');
    return env.load.run(
      {
        kind: 'state-reports',
        changing: true,
        baseUrl: env.flotilla.url,
        path: '/device/v3/state',
        concurrency: env.options.throughputConcurrency,
        devices: changingReportDevices(env.devices, true),
      },
      window,
    );
  },
};
