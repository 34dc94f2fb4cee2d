import type { RequestSpec } from './load-jobs.js';
import { type PinejsServer, startPinejs } from './pinejs/pinejs-process.js';
import type { BenchEnv, Measure, Row, Scenario, Side } from './scenario.js';
import { bearer, get, getJson, odata, pick, seededRandom } from './scenario-helpers.js';
import { difference, isoDate } from './scenario-verify.js';
import type { SeededFleet } from './seed.js';

// The member's list reads through /v7 against the same reads through `@balena/pinejs` (balena's
// own engine, pinejs/), each on the same rows under the same row filter: shape by shape, A/B
// interleaved, the median of per-round p99 ratios. On the reference side of this scenario is
// pinejs, not the hand-written SQL (the device page and release list scenarios print that).

type Shape = {
  key: string;
  name: string;
  // The path below the API root (/v7 or pinejs's /flotilla) of each request of a round.
  paths(env: BenchEnv): string[];
  // A few of them, compared field by field before the rounds.
  checks(env: BenchEnv): string[];
};

const samplesCount = 300;
const pageSize = 50;

const memberFleets = (env: BenchEnv): SeededFleet[] =>
  env.seed.fleets.filter((fleet) => env.seed.memberFleetIds.includes(fleet.id));

const onlineFilter = (fleet: number): string =>
  odata(`belongs_to__application eq ${fleet} and is_online eq true`);

const deviceSelect =
  '$expand=is_of__device_type($select=slug,name),is_running__release($select=commit,raw_version)' +
  '&$select=id,uuid,device_name,overall_status,last_connectivity_event';

const devicePage = (fleet: number, skip: number): string =>
  `/device?$filter=${onlineFilter(fleet)}&${deviceSelect}` +
  `&$orderby=${odata('device_name asc')}&$top=${pageSize}&$skip=${skip}`;

// Every device the member reads (all their fleets, no other filter), by name: the deepest
// device pages the seed has.
const deepDevicePage = (skip: number): string =>
  `/device?${deviceSelect}&$orderby=${odata('device_name asc,id asc')}&$top=${pageSize}&$skip=${skip}`;

const releasePage = (fleet: number, skip: number): string =>
  `/release?$filter=${odata(`belongs_to__application eq ${fleet}`)}` +
  '&$select=id,commit,raw_version,created_at' +
  `&$orderby=${odata('created_at desc,id desc')}&$top=${pageSize}&$skip=${skip}`;

const pages = (count: number): number => Math.max(1, Math.ceil(count / pageSize));

const memberDevices = (env: BenchEnv): number =>
  memberFleets(env).reduce((sum, fleet) => sum + fleet.deviceIds.length, 0);

const shapes: Shape[] = [
  {
    key: 'page',
    name: 'device page (50 online, expanded, by name)',
    paths(env) {
      const random = seededRandom(20_261_130);
      return Array.from({ length: samplesCount }, () => {
        const fleet = pick(memberFleets(env), random);
        return devicePage(fleet.id, pageSize * Math.floor(random() * pages(fleet.onlineCount)));
      });
    },
    checks: (env) => memberFleets(env).flatMap((fleet) => [devicePage(fleet.id, 0)]),
  },
  {
    key: 'count',
    name: 'device $count (online, one fleet)',
    paths: (env) =>
      memberFleets(env).map((fleet) => `/device/$count?$filter=${onlineFilter(fleet.id)}`),
    checks: (env) =>
      memberFleets(env).map((fleet) => `/device/$count?$filter=${onlineFilter(fleet.id)}`),
  },
  {
    key: 'deepDevices',
    name: 'device page, deep ($skip up to every device the member reads)',
    paths(env) {
      const random = seededRandom(20_261_131);
      const count = pages(memberDevices(env));
      return Array.from({ length: samplesCount }, () =>
        deepDevicePage(pageSize * Math.floor(count / 2 + (random() * count) / 2)),
      );
    },
    checks: (env) => [
      deepDevicePage(pageSize * (pages(memberDevices(env)) - 1)),
      deepDevicePage(0),
    ],
  },
  {
    key: 'deepReleases',
    name: 'release page, deep ($skip of 1,000s, newest first)',
    paths(env) {
      const random = seededRandom(20_261_132);
      const count = pages(env.seed.releaseList.releases);
      return Array.from({ length: samplesCount }, () =>
        releasePage(env.seed.releaseList.fleet, pageSize * Math.floor(random() * count)),
      );
    },
    checks: (env) => [
      releasePage(env.seed.releaseList.fleet, 0),
      releasePage(env.seed.releaseList.fleet, pageSize * 60),
    ],
  },
];

let pinejs: PinejsServer | undefined;

const target = (env: BenchEnv, side: Side): { baseUrl: string; root: string; token: string } => {
  if (side === 'flotilla')
    return { baseUrl: env.flotilla.url, root: '/v7', token: env.tokens.member };
  if (!pinejs) throw new Error('pinejs is not running');
  return { baseUrl: pinejs.url, root: '/flotilla', token: pinejs.token };
};

const request = (env: BenchEnv, side: Side, path: string): RequestSpec => {
  const { root, token } = target(env, side);
  return get(`${root}${path}`, bearer(token));
};

// What both engines must agree on: each row's values (in name order: pinejs puts expansions
// first), dates as instants, expansions as lists.
const digest = (answer: unknown): string =>
  JSON.stringify(answer, (_key, value: unknown) => {
    if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value)) return isoDate(value);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return Object.fromEntries(
        Object.entries(value)
          .filter(([name]) => name !== '__metadata')
          .sort(([a], [b]) => a.localeCompare(b)),
      );
    }
    return value;
  });

const verify = async (env: BenchEnv): Promise<string[]> => {
  const problems: string[] = [];
  for (const shape of shapes) {
    for (const path of shape.checks(env)) {
      const answer = async (side: Side): Promise<string> => {
        const { baseUrl, root, token } = target(env, side);
        return digest(await getJson<{ d: unknown }>(baseUrl, `${root}${path}`, bearer(token)));
      };
      const flotilla = await answer('flotilla');
      if (flotilla === '{"d":[]}') problems.push(`${shape.key} ${path}: Flotilla returned no rows`);
      const other = await answer('reference').catch((error: unknown) => {
        throw new Error(`${String(error)}\npinejs said:\n${pinejs?.output() ?? ''}`);
      });
      problems.push(...difference(`${shape.key} ${path} (sql: pinejs)`, flotilla, other));
    }
  }
  return problems;
};

const rows: Row[] = shapes.map((shape) => ({
  name: `pinejs: ${shape.name}, member`,
  metric: `${shape.key}P99Ms`,
  unit: 'ms',
  goal: { kind: 'ratio', better: 'lower', target: 1 / 1.5 },
  goalText: 'p99 ≤ 0.67x pinejs (1.5x faster)',
}));

export const pinejsScenario: Scenario = {
  id: 'pinejs',
  rows,
  async prepare(env) {
    const mark = performance.now();
    pinejs = await startPinejs(env.databaseUrl, env.db, env.seed);
    env.log(
      `  pinejs ${pinejs.url} (pid ${pinejs.pid}) loaded in ${Math.round(performance.now() - mark)} ms`,
    );
  },
  verify,
  async cleanUp() {
    await pinejs?.stop();
    pinejs = undefined;
  },
  // The reference side's CPU in the progress lines is pinejs's.
  referenceServer: () => {
    if (!pinejs) throw new Error('pinejs is not running');
    return pinejs;
  },
  // BENCH_EXPLAIN's plan: the deep device page, the one shape no other scenario reads (the
  // device-page, device-count and release-list scenarios show the others).
  sample: (env) =>
    request(
      env,
      'flotilla',
      shapes.find((shape) => shape.key === 'deepDevices')?.paths(env)[0] ?? '/device',
    ),
  async measure(side, env, window) {
    const { baseUrl } = target(env, side);
    const measure: Measure = { metrics: {}, requests: 0, errors: 0, firstError: undefined };
    for (const shape of shapes) {
      const sets = shape.paths(env).map((path) => [request(env, side, path)]);
      const result = await env.load.run(
        { kind: 'requests', baseUrl, concurrency: env.options.concurrency, sets },
        window,
      );
      for (const [name, value] of Object.entries(result.metrics)) {
        measure.metrics[`${shape.key}${name.charAt(0).toUpperCase()}${name.slice(1)}`] = value;
      }
      measure.requests += result.requests;
      measure.errors += result.errors;
      measure.firstError ??= result.firstError;
    }
    measure.metrics.opsPerSecond = Number.NaN;
    measure.metrics.p50Ms = Number.NaN;
    measure.metrics.p99Ms = Number.NaN;
    return measure;
  },
};
