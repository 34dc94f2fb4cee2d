import type { RequestSpec } from './load-jobs.js';
import type { BenchEnv, Scenario } from './scenario.js';
import { bearer, get, getJson, odata, p99Ratio, runSets } from './scenario-helpers.js';
import { type DateValue, difference, isoDate } from './scenario-verify.js';

// The console's release list of a fleet with 5,000 releases (seed.ts), first page, as the console
// sends it (packages/web releases/release-queries.ts fetchReleasePage): the page of 50 with its
// $select, $expand and $orderby, and the fleet's release $count, the two at once. The reference
// answers the same two reads in hand-written SQL (baseline-sql.ts). The reader is the member,
// through a direct fleet membership.

const listSelect =
  'id,commit,raw_version,status,created_at,start_timestamp,update_timestamp,is_final,is_invalidated';

const pagePath = (fleet: number): string =>
  `/v7/release?$select=${listSelect}&$filter=${odata(`belongs_to__application eq ${fleet}`)}` +
  '&$expand=is_created_by__user($select=id,username),is_running_on__device/$count' +
  `&$orderby=${odata('created_at desc,id desc')}&$top=50&$skip=0`;

const countPath = (fleet: number): string =>
  `/v7/application(${fleet})?$select=id` +
  `&$expand=owns__release/$count($filter=${odata(`belongs_to__application eq ${fleet}`)})`;

type Side = 'flotilla' | 'reference';

const requests = (env: BenchEnv, side: Side): RequestSpec[] => {
  const fleet = env.seed.releaseList.fleet;
  const user = env.seed.member.userId;
  return side === 'flotilla'
    ? [
        get(pagePath(fleet), bearer(env.tokens.member)),
        get(countPath(fleet), bearer(env.tokens.member)),
      ]
    : [
        get(`/ref/release-page?user=${user}&fleet=${fleet}&skip=0`),
        get(`/ref/release-count?user=${user}&fleet=${fleet}`),
      ];
};

type ReleaseRow = {
  id: number;
  commit: string;
  raw_version: string;
  status: string;
  created_at: DateValue;
  start_timestamp: DateValue;
  update_timestamp: DateValue;
  is_final: boolean;
  is_invalidated: boolean;
  is_created_by__user: { id: number; username: string }[];
  is_running_on__device: number;
};

type CountRow = { id: number; owns__release: number };

const digest = (rows: ReleaseRow[], counts: CountRow[]): string =>
  JSON.stringify({
    count: counts.map((row) => [row.id, row.owns__release]),
    rows: rows.map((row) => [
      row.id,
      row.commit,
      row.raw_version,
      row.status,
      isoDate(row.created_at),
      isoDate(row.start_timestamp),
      isoDate(row.update_timestamp),
      row.is_final,
      row.is_invalidated,
      row.is_created_by__user.map((user) => [user.id, user.username]),
      row.is_running_on__device,
    ]),
  });

const answer = async (env: BenchEnv, side: Side): Promise<[ReleaseRow[], CountRow[]]> => {
  const [page, count] = requests(env, side);
  if (!page || !count) throw new Error('the release list has two reads');
  const baseUrl = side === 'flotilla' ? env.flotilla.url : env.reference.url;
  const rows = await getJson<{ d: ReleaseRow[] }>(baseUrl, page.path, page.headers);
  const counts = await getJson<{ d: CountRow[] }>(baseUrl, count.path, count.headers);
  return [rows.d, counts.d];
};

const verify = async (env: BenchEnv): Promise<string[]> => {
  const [rows, counts] = await answer(env, 'flotilla');
  const problems: string[] = [];
  if (rows.length !== 50) problems.push(`Flotilla's page has ${rows.length} releases, not 50`);
  if (counts[0]?.owns__release !== env.seed.releaseList.releases) {
    problems.push(
      `Flotilla counts ${counts[0]?.owns__release} releases, the seed made ${env.seed.releaseList.releases}`,
    );
  }
  const [refRows, refCounts] = await answer(env, 'reference');
  return [
    ...problems,
    ...difference('release list', digest(rows, counts), digest(refRows, refCounts)),
  ];
};

export const releaseListScenario: Scenario = {
  id: 'release-list',
  rows: [p99Ratio('console release list (page of 50 + $count), 5,000 releases, member', 2)],
  verify,
  sample: (env) => requests(env, 'flotilla')[0] ?? get('/'),
  measure(side, env, window) {
    return runSets(env, side, [requests(env, side)], env.options.concurrency, window);
  },
};
