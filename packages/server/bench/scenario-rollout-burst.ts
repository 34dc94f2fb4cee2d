import type { Scenario } from './scenario.js';
import { baseUrlOf } from './scenario-helpers.js';
import { changingReportDevices } from './scenario-state-report-changing.js';
import { addRolloutRelease, createRolloutFleet, type RolloutFleet } from './rollout-fleet.js';

// A rollout burst: the devices of one fleet (10,000 in full mode) get a new release at once and
// each walks its update as balena-supervisor reports it: five changing reports (downloading 0 %
// and 40 %, downloaded, installing, done with the new release running), one after another,
// throughputConcurrency devices at a time (workload-changing-report.ts). Each side, each round,
// rolls out a release of its own; the reference (reference-changing-state.ts) writes the same
// device columns and image installs through a bare batched route. Printed: report p99, the time
// until every device runs the release, and the devices that do not (stuck).

const burstDevices = (quick: boolean): number => (quick ? 500 : 10_000);

let fleet: RolloutFleet | undefined;
let running = '';
let rollouts = 0;

export const rolloutBurstScenario: Scenario = {
  id: 'rollout-burst',
  rows: [
    {
      name: 'rollout burst, 5 changing reports a device: time until all run the release',
      metric: 'allDoneMs',
      unit: 'ms',
      goal: { kind: 'none' },
      goalText: 'printed',
    },
    {
      name: 'rollout burst, 5 changing reports a device: report p99',
      metric: 'p99Ms',
      unit: 'ms',
      goal: { kind: 'none' },
      goalText: 'printed',
    },
    {
      name: 'rollout burst: devices not running the release after it',
      metric: 'stuck',
      unit: 'rows',
      goal: { kind: 'absolute', better: 'lower', target: 0 },
      goalText: 'no device stuck',
    },
  ],
  async prepare(env) {
    fleet = await createRolloutFleet(env.db, burstDevices(env.options.mode === 'quick'));
    running = fleet.devices[0]?.commit ?? '';
    env.log(`rollout burst: fleet ${fleet.id} with ${fleet.devices.length} devices`);
  },
  async measure(side, env) {
    if (!fleet) throw new Error('the rollout fleet was not prepared');
    rollouts += 1;
    const target = await addRolloutRelease(env.db, fleet.id, `${side}-${rollouts}`);
    const devices = changingReportDevices(
      fleet.devices.map((device) => ({ ...device, commit: running })),
      side === 'flotilla',
    );
    const measure = await env.load.run(
      {
        kind: 'rollout',
        baseUrl: baseUrlOf(env, side),
        path: side === 'flotilla' ? '/device/v3/state' : '/ref/state-changing',
        concurrency: env.options.throughputConcurrency,
        devices,
        target,
      },
      { warmupMs: 0, durationMs: 0 },
    );
    const { rows } = await env.db.query<{ stuck: number }>(
      `SELECT count(*)::int AS "stuck" FROM "device" d JOIN "release" r ON r."commit" = $2
        WHERE d."belongs_to__application" = $1
          AND d."is_running__release" IS DISTINCT FROM r."id"`,
      [fleet.id, target.commit],
    );
    running = target.commit;
    return { ...measure, metrics: { ...measure.metrics, stuck: rows[0]?.stuck ?? Number.NaN } };
  },
};
