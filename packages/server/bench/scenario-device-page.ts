import type { RequestSpec } from './load-jobs.js';
import type { BenchEnv, Scenario } from './scenario.js';
import {
  bearer,
  get,
  getJson,
  odata,
  p99Ratio,
  pick,
  runSets,
  seededRandom,
} from './scenario-helpers.js';
import { type DateValue, difference, isoDate } from './scenario-verify.js';
import type { SeededFleet } from './seed.js';

// The dashboard's device list of a fleet member: a page of 50 online devices with expansions,
// and its $count, through /v7 against the same reads in hand-written SQL (baseline-sql.ts).

type PageRow = {
  id: number;
  overall_status: string;
  last_connectivity_event: DateValue;
  is_of__device_type: { slug: string }[];
  is_running__release: { commit: string }[];
};

type PageSample = { fleet: number; skip: number };

const samplesCount = 500;

const pageOf = (fleet: SeededFleet, random: () => number): PageSample => {
  const pages = Math.max(1, Math.ceil(fleet.onlineCount / 50));
  return { fleet: fleet.id, skip: 50 * Math.floor(random() * pages) };
};

const pageFilter = (fleet: number): string =>
  odata(`belongs_to__application eq ${fleet} and is_online eq true`);

const pagePath = ({ fleet, skip }: PageSample): string =>
  `/v7/device?$filter=${pageFilter(fleet)}` +
  '&$expand=is_of__device_type($select=slug,name),is_running__release($select=commit,raw_version)' +
  '&$select=id,uuid,device_name,overall_status,last_connectivity_event' +
  `&$orderby=${odata('device_name asc')}&$top=50&$skip=${skip}`;

const countPath = (fleet: number): string => `/v7/device/$count?$filter=${pageFilter(fleet)}`;

const memberFleets = (env: BenchEnv): SeededFleet[] =>
  env.seed.fleets.filter((fleet) => env.seed.memberFleetIds.includes(fleet.id));

const samples = (env: BenchEnv): PageSample[] => {
  const random = seededRandom(20_240_611);
  const fleets = memberFleets(env);
  return Array.from({ length: samplesCount }, () => pageOf(pick(fleets, random), random));
};

type Request = (sample: PageSample, env: BenchEnv) => RequestSpec;

const flotillaPage: Request = (sample, env) => get(pagePath(sample), bearer(env.tokens.member));
const referencePage: Request = (sample, env) =>
  get(`/ref/device-page?user=${env.seed.member.userId}&fleet=${sample.fleet}&skip=${sample.skip}`);
const flotillaCount: Request = (sample, env) =>
  get(countPath(sample.fleet), bearer(env.tokens.member));
const referenceCount: Request = (sample, env) =>
  get(`/ref/device-count?user=${env.seed.member.userId}&fleet=${sample.fleet}`);

// What both sides must agree on: the rows in order, their status and expanded keys, the count.
const pageDigest = (rows: PageRow[], count: number): string =>
  JSON.stringify({
    count,
    rows: rows.map((row) => [
      row.id,
      row.overall_status,
      isoDate(row.last_connectivity_event),
      row.is_of__device_type.map((type) => type.slug),
      row.is_running__release.map((release) => release.commit),
    ]),
  });

const verify = async (env: BenchEnv): Promise<string[]> => {
  const first = memberFleets(env)[0];
  const outsider = env.seed.fleets.find((fleet) => !env.seed.memberFleetIds.includes(fleet.id));
  if (!first || !outsider) return ['no fleets for the sample'];
  const checks: PageSample[] = [
    { fleet: first.id, skip: 0 },
    { fleet: first.id, skip: first.onlineCount > 50 ? 50 : 0 },
    // A fleet the member may not read: both sides must return nothing.
    { fleet: outsider.id, skip: 0 },
  ];
  const problems: string[] = [];
  for (const sample of checks) {
    const side = async (page: Request, count: Request, baseUrl: string) => {
      const pageSpec = page(sample, env);
      const countSpec = count(sample, env);
      const rows = await getJson<{ d: PageRow[] }>(baseUrl, pageSpec.path, pageSpec.headers);
      const total = await getJson<{ d: number }>(baseUrl, countSpec.path, countSpec.headers);
      return pageDigest(rows.d, total.d);
    };
    const flotilla = await side(flotillaPage, flotillaCount, env.flotilla.url);
    const reference = await side(referencePage, referenceCount, env.reference.url);
    if (sample.fleet !== outsider.id && flotilla.includes('"rows":[]')) {
      problems.push(`fleet ${sample.fleet} skip ${sample.skip}: Flotilla returned no rows`);
    }
    problems.push(...difference(`fleet ${sample.fleet} skip ${sample.skip}`, flotilla, reference));
  }
  return problems;
};

const readScenario = (
  id: string,
  name: string,
  flotilla: Request,
  reference: Request,
  withVerify: boolean,
): Scenario => ({
  id,
  rows: [p99Ratio(name, 2)],
  ...(withVerify ? { verify } : {}),
  sample: (env) => flotilla(samples(env)[0] ?? { fleet: 1, skip: 0 }, env),
  measure(side, env, window) {
    const request = side === 'flotilla' ? flotilla : reference;
    const sets = samples(env).map((sample) => [request(sample, env)]);
    return runSets(env, side, sets, env.options.concurrency, window);
  },
});

export const devicePageScenario = readScenario(
  'device-page',
  'v7 device page (50 online, expanded), member',
  flotillaPage,
  referencePage,
  true,
);

export const deviceCountScenario = readScenario(
  'device-count',
  'v7 device $count, member',
  flotillaCount,
  referenceCount,
  false,
);
