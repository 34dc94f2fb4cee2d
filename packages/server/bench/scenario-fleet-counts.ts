import type { RequestSpec } from './load-jobs.js';
import type { BenchEnv, Scenario } from './scenario.js';
import {
  bearer,
  get,
  odata,
  p99AtMost,
  pick,
  runSets,
  seededRandom,
  sendJson,
} from './scenario-helpers.js';
import { difference } from './scenario-verify.js';
import type { BenchUser } from './seed.js';
import { deviceStatuses as statuses } from '@flotilla/shared/devices/device-statuses';

// The console's device counts per overall status, as it asks for them: one count per status, the
// seven in one `POST /v7/$batch` (packages/web fleets/application-queries.ts fetchStatusCounts for
// the fleet list, application-detail.ts fetchDeviceStatusCounts for one fleet's summary). The
// reference answers the same seven hand-written counts in one bare request. One console user at
// a time: the goals are the latency a person sees, not a queue behind other callers.
const oneUser = 1;

const accessible = 'is_directly_accessible_by__user/any(dau:1 eq 1)';

const countExpand = (status: string): string =>
  `&$expand=${odata(`owns__device/$count($filter=overall_status eq '${status}')`)}`;

const fleetListPath = (status: string): string =>
  `/v7/application?$select=id&$filter=${odata(`is_of__class eq 'fleet' and ${accessible}`)}` +
  countExpand(status);

const summaryPath = (fleet: number, status: string): string =>
  `/v7/application?$select=id&$filter=${odata(`id eq ${fleet}`)}${countExpand(status)}`;

const batch = (paths: string[], token: string): RequestSpec => ({
  method: 'POST',
  path: '/v7/$batch',
  headers: { ...bearer(token), 'content-type': 'application/json' },
  body: JSON.stringify({
    requests: paths.map((url, index) => ({ id: String(index), method: 'GET', url })),
  }),
  expect: [200],
});

const statusList = statuses.join(',');

type Caller = { user: BenchUser; token: string };
type CountRow = { id: number; owns__device: number };
type Batched<T> = { responses: { status?: number; body?: { d: T }; d?: T }[] };

// Each response's rows: Flotilla's carry a status and a body, the reference's the rows alone.
const answersOf = <T>(answer: Batched<T>, side: string): T[] =>
  answer.responses.map((response, index) => {
    const rows = response.body?.d ?? response.d;
    if (rows === undefined || (response.status ?? 200) !== 200) {
      throw new Error(`${side}: batched read ${index} failed: ${JSON.stringify(response)}`);
    }
    return rows;
  });

const fleetListRequest = (side: 'flotilla' | 'reference', caller: Caller): RequestSpec =>
  side === 'flotilla'
    ? batch(statuses.map(fleetListPath), caller.token)
    : get(`/ref/fleet-counts-all?user=${caller.user.userId}&statuses=${statusList}`);

const verifyFleetList = async (env: BenchEnv, caller: Caller): Promise<string[]> => {
  const digest = (rows: CountRow[]): string =>
    JSON.stringify([...rows].sort((a, b) => a.id - b.id).map((row) => [row.id, row.owns__device]));
  const ours = answersOf(
    await sendJson<Batched<CountRow[]>>(env.flotilla.url, fleetListRequest('flotilla', caller)),
    'flotilla',
  );
  const theirs = answersOf(
    await sendJson<Batched<CountRow[]>>(env.reference.url, fleetListRequest('reference', caller)),
    'reference',
  );
  return statuses.flatMap((status, index) =>
    difference(`fleet list ${status}`, digest(ours[index] ?? []), digest(theirs[index] ?? [])),
  );
};

const fleetList = (
  id: string,
  name: string,
  caller: (env: BenchEnv) => Caller,
  goalMs = 20,
): Scenario => ({
  id,
  rows: [p99AtMost(name, goalMs)],
  ...(id === 'fleet-list-tenth' ? {} : { verify: (env) => verifyFleetList(env, caller(env)) }),
  sample: (env) => fleetListRequest('flotilla', caller(env)),
  measure(side, env, window) {
    return runSets(env, side, [[fleetListRequest(side, caller(env))]], oneUser, window);
  },
});

export const fleetListScenario = fleetList(
  'fleet-list',
  'console fleet-list counts (one batch of 7 reads), org administrator, all devices',
  (env) => ({ user: env.seed.admin, token: env.tokens.admin }),
);

// The same for an administrator of a tenth of the devices: how the counts grow with the fleet.
export const fleetListSmallScenario = fleetList(
  'fleet-list-tenth',
  'console fleet-list counts (one batch of 7 reads), administrator of a tenth',
  (env) => ({ user: env.seed.smallAdmin, token: env.tokens.smallAdmin }),
);

// A plain member of three fleets (through fleet memberships): what most console users see.
export const fleetListMemberScenario = fleetList(
  'fleet-list-member',
  'console fleet-list counts (one batch of 7 reads), member of 3 fleets',
  (env) => ({ user: env.seed.member, token: env.tokens.member }),
  5,
);

const summaryRequest = (env: BenchEnv, side: 'flotilla' | 'reference', fleet: number) =>
  side === 'flotilla'
    ? batch(
        statuses.map((status) => summaryPath(fleet, status)),
        env.tokens.admin,
      )
    : get(
        `/ref/fleet-summary-all?user=${env.seed.admin.userId}&fleet=${fleet}&statuses=${statusList}`,
      );

const summarySets = (env: BenchEnv, side: 'flotilla' | 'reference'): RequestSpec[][] => {
  const random = seededRandom(7);
  return Array.from({ length: 200 }, () => [
    summaryRequest(env, side, pick(env.seed.fleets, random).id),
  ]);
};

export const fleetSummaryScenario: Scenario = {
  id: 'fleet-summary',
  rows: [p99AtMost("one fleet's summary counts (one batch of 7 reads), org administrator", 5)],
  sample: (env) => summaryRequest(env, 'flotilla', env.seed.fleets[0]?.id ?? 1),
  async verify(env) {
    const fleet = env.seed.fleets[0]?.id ?? 1;
    const ours = answersOf(
      await sendJson<Batched<CountRow[]>>(env.flotilla.url, summaryRequest(env, 'flotilla', fleet)),
      'flotilla',
    );
    const theirs = answersOf(
      await sendJson<Batched<number>>(env.reference.url, summaryRequest(env, 'reference', fleet)),
      'reference',
    );
    return statuses.flatMap((status, index) =>
      difference(
        `fleet ${fleet} ${status}`,
        String(ours[index]?.[0]?.owns__device),
        String(theirs[index]),
      ),
    );
  },
  measure(side, env, window) {
    return runSets(env, side, summarySets(env, side), oneUser, window);
  },
};
