import type { RequestSpec } from './load-jobs.js';
import type { BenchEnv, Scenario } from './scenario.js';
import {
  bearer,
  get,
  getJson,
  odata,
  p99AtMost,
  pick,
  runSets,
  seededRandom,
} from './scenario-helpers.js';
import { difference } from './scenario-verify.js';
import type { BenchUser } from './seed.js';

// The console's device counts per overall status, as it asks for them: seven requests at once,
// one per status (packages/web fleets/application-queries.ts fetchStatusCounts for the fleet
// list, application-detail.ts fetchDeviceStatusCounts for one fleet's summary). One operation is
// the seven; its latency is the slowest. One console user at a time: the goals are the latency a
// person sees, not a queue behind other callers.
const oneUser = 1;

const statuses = [
  'operational',
  'updating',
  'configuring',
  'post-provisioning',
  'reduced-functionality',
  'disconnected',
  'inactive',
] as const;

const accessible = 'is_directly_accessible_by__user/any(dau:1 eq 1)';

const fleetListPath = (status: string): string =>
  `/v7/application?$select=id&$filter=${odata(`is_of__class eq 'fleet' and ${accessible}`)}` +
  `&$expand=${odata(`owns__device/$count($filter=overall_status eq '${status}')`)}`;

const summaryPath = (fleet: number, status: string): string =>
  `/v7/application(${fleet})?$select=id&$expand=${odata(`owns__device/$count($filter=overall_status eq '${status}')`)}`;

type Caller = { user: BenchUser; token: string };

const fleetListSet = (side: 'flotilla' | 'reference', caller: Caller): RequestSpec[] =>
  statuses.map((status) =>
    side === 'flotilla'
      ? get(fleetListPath(status), bearer(caller.token))
      : get(`/ref/fleet-counts?user=${caller.user.userId}&status=${status}`),
  );

type CountRow = { id: number; owns__device: number };

const verifyFleetList = async (env: BenchEnv): Promise<string[]> => {
  const caller = { user: env.seed.admin, token: env.tokens.admin };
  const problems: string[] = [];
  const flotilla = fleetListSet('flotilla', caller);
  const reference = fleetListSet('reference', caller);
  for (const [index, status] of statuses.entries()) {
    const ours = flotilla[index];
    const theirs = reference[index];
    if (!ours || !theirs) continue;
    const digest = (rows: CountRow[]): string =>
      JSON.stringify(
        [...rows].sort((a, b) => a.id - b.id).map((row) => [row.id, row.owns__device]),
      );
    const a = await getJson<{ d: CountRow[] }>(env.flotilla.url, ours.path, ours.headers);
    const b = await getJson<{ d: CountRow[] }>(env.reference.url, theirs.path, theirs.headers);
    problems.push(...difference(`fleet list ${status}`, digest(a.d), digest(b.d)));
  }
  return problems;
};

const fleetList = (id: string, name: string, caller: (env: BenchEnv) => Caller): Scenario => ({
  id,
  rows: [p99AtMost(name, 20)],
  ...(id === 'fleet-list' ? { verify: verifyFleetList } : {}),
  sample: (env) => get(fleetListPath('operational'), bearer(caller(env).token)),
  measure(side, env, window) {
    return runSets(env, side, [fleetListSet(side, caller(env))], oneUser, window);
  },
});

export const fleetListScenario = fleetList(
  'fleet-list',
  'console fleet-list counts (7 requests), org administrator, all devices',
  (env) => ({ user: env.seed.admin, token: env.tokens.admin }),
);

// The same for an administrator of a tenth of the devices: how the counts grow with the fleet.
export const fleetListSmallScenario = fleetList(
  'fleet-list-tenth',
  'console fleet-list counts (7 requests), administrator of a tenth',
  (env) => ({ user: env.seed.smallAdmin, token: env.tokens.smallAdmin }),
);

const summarySets = (env: BenchEnv, side: 'flotilla' | 'reference'): RequestSpec[][] => {
  const random = seededRandom(7);
  return Array.from({ length: 200 }, () => {
    const fleet = pick(env.seed.fleets, random).id;
    return statuses.map((status) =>
      side === 'flotilla'
        ? get(summaryPath(fleet, status), bearer(env.tokens.admin))
        : get(`/ref/fleet-summary?user=${env.seed.admin.userId}&fleet=${fleet}&status=${status}`),
    );
  });
};

export const fleetSummaryScenario: Scenario = {
  id: 'fleet-summary',
  rows: [p99AtMost("one fleet's summary counts (7 requests), org administrator", 5)],
  sample: (env) =>
    get(summaryPath(env.seed.fleets[0]?.id ?? 1, 'operational'), bearer(env.tokens.admin)),
  async verify(env) {
    const fleet = env.seed.fleets[0]?.id ?? 1;
    const problems: string[] = [];
    for (const status of statuses) {
      const ours = await getJson<{ d: CountRow[] }>(
        env.flotilla.url,
        summaryPath(fleet, status),
        bearer(env.tokens.admin),
      );
      const theirs = await getJson<{ d: number }>(
        env.reference.url,
        `/ref/fleet-summary?user=${env.seed.admin.userId}&fleet=${fleet}&status=${status}`,
      );
      problems.push(
        ...difference(
          `fleet ${fleet} ${status}`,
          String(ours.d[0]?.owns__device),
          String(theirs.d),
        ),
      );
    }
    return problems;
  },
  measure(side, env, window) {
    return runSets(env, side, summarySets(env, side), oneUser, window);
  },
};
