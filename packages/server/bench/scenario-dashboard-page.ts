import { countSql, pageSql } from './baseline-sql.js';
import { type BenchEnv, type Caller, pick, type Scenario } from './scenario-env.js';
import { getCount, getRows, odata } from './scenario-http.js';
import { type DateValue, difference, isoDate } from './scenario-verify.js';
import type { SeededFleet } from './seed.js';

type PageRow = {
  id: number;
  overall_status: string;
  last_connectivity_event: DateValue;
  is_of__device_type: { slug: string }[];
  is_running__release: { commit: string }[];
};

type PageSample = { fleet: number; skip: number };

const pageOf = (fleet: SeededFleet, random: () => number): PageSample => {
  const pages = Math.max(1, Math.ceil(fleet.onlineCount / 50));
  return { fleet: fleet.id, skip: 50 * Math.floor(random() * pages) };
};

const pageFilter = (fleet: number): string =>
  odata(`belongs_to__application eq ${fleet} and is_online eq true`);

const pagePath = ({ fleet, skip }: PageSample): string =>
  `/device?$filter=${pageFilter(fleet)}` +
  '&$expand=is_of__device_type($select=slug,name),is_running__release($select=commit,raw_version)' +
  '&$select=id,uuid,device_name,overall_status,last_connectivity_event' +
  `&$orderby=${odata('device_name asc')}&$top=50&$skip=${skip}`;

const countPath = (fleet: number): string => `/device/$count?$filter=${pageFilter(fleet)}`;

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

const enginePage = async (env: BenchEnv, caller: Caller, sample: PageSample) => {
  const [rows, count] = await Promise.all([
    getRows<PageRow>(env, pagePath(sample), caller.token),
    getCount(env, countPath(sample.fleet), caller.token),
  ]);
  return { rows, count };
};

const sqlPage = async (env: BenchEnv, caller: Caller, sample: PageSample) => {
  const [page, count] = await Promise.all([
    env.sql.query<PageRow>(pageSql, [caller.user.userId, sample.fleet, sample.skip]),
    env.sql.query<{ n: number }>(countSql, [caller.user.userId, sample.fleet]),
  ]);
  return { rows: page.rows, count: Number(count.rows[0]?.n ?? 0) };
};

export const dashboardPage = (
  env: BenchEnv,
  caller: Caller,
  outsider: SeededFleet | undefined,
): Scenario => ({
  name: `dashboard device page + $count (${caller.label})`,
  async engine() {
    await enginePage(env, caller, pageOf(pick(caller.fleets, env.random), env.random));
  },
  async sql() {
    await sqlPage(env, caller, pageOf(pick(caller.fleets, env.random), env.random));
  },
  async verify() {
    const first = caller.fleets[0];
    if (!first) return ['no fleets for the sample'];
    const samples: PageSample[] = [
      { fleet: first.id, skip: 0 },
      // A later page too, when the fleet has one (trial runs seed fewer devices).
      { fleet: first.id, skip: first.onlineCount > 50 ? 50 : 0 },
    ];
    // A fleet the caller may not read: both sides must return nothing.
    if (outsider) samples.push({ fleet: outsider.id, skip: 0 });
    const problems: string[] = [];
    for (const sample of samples) {
      const engine = await enginePage(env, caller, sample);
      const sql = await sqlPage(env, caller, sample);
      if (sample.fleet !== outsider?.id && engine.rows.length === 0) {
        problems.push(`fleet ${sample.fleet} skip ${sample.skip}: the engine returned no rows`);
      }
      problems.push(
        ...difference(
          `fleet ${sample.fleet} skip ${sample.skip}`,
          pageDigest(engine.rows, engine.count),
          pageDigest(sql.rows, sql.count),
        ),
      );
    }
    return problems;
  },
});
