import type { Queryable } from '../src/infra/db/database.js';
import type { BenchUser, SeededFleet, SeedInfo } from './seed.js';

// Each scenario does the same work twice: through the real HTTP server and OData engine, and
// through hand-written SQL on a plain pg Pool (the baseline). The device protocol, which has no
// SQL twin, has its own scenarios and table (protocol.ts).
export type Scenario = {
  name: string;
  engine: () => Promise<void>;
  sql: () => Promise<void>;
  // Runs both sides once on a fixed sample and returns the differences (empty when they agree).
  verify?: () => Promise<string[]>;
};

export type BenchEnv = {
  baseUrl: string;
  // The baseline: a plain pg Pool (see poolQueryable in explain.ts).
  sql: Queryable;
  seed: SeedInfo;
  tokens: { admin: string; member: string };
  random: () => number;
};

type Caller = { label: string; user: BenchUser; token: string; fleets: SeededFleet[] };

// A small seeded PRNG (mulberry32), so every run picks the same sequence of fleets and devices.
export const seededRandom = (seed: number): (() => number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
};

const pick = <T>(items: readonly T[], random: () => number): T => {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
};

// ---------------------------------------------------------------------------------------------
// HTTP side
// ---------------------------------------------------------------------------------------------

// OData literals as the SDK sends them: spaces percent-encoded, the rest left readable.
const odata = (text: string): string => text.replace(/ /g, '%20');

const call = async (
  env: BenchEnv,
  method: 'GET' | 'PATCH',
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<string> => {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${env.baseUrl}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(
      `${method} ${path.slice(0, 160)} answered ${response.status}: ${text.slice(0, 300)}`,
    );
  }
  return text;
};

const getRows = async <Row>(env: BenchEnv, path: string, token: string): Promise<Row[]> =>
  (JSON.parse(await call(env, 'GET', `/v7${path}`, token)) as { d: Row[] }).d;

const getCount = async (env: BenchEnv, path: string, token: string): Promise<number> =>
  (JSON.parse(await call(env, 'GET', `/v7${path}`, token)) as { d: number }).d;

// ---------------------------------------------------------------------------------------------
// Hand-written SQL side
// ---------------------------------------------------------------------------------------------

// The fleets a user may read, written by hand against the same view the engine uses.
const readableFleets = `SELECT fa."application" FROM "fleet_access" fa WHERE fa."user" = $1`;

const vpnControlNames = `('RESIN_SUPERVISOR_VPN_CONTROL', 'BALENA_SUPERVISOR_VPN_CONTROL')`;

// The heartbeat, as an application would write it (same rules as the model's): a device stays
// online for 1.5 poll intervals (+ 10 s, the granularity of the stored contact) after its last
// contact, then times out for one more interval, then is offline; never contacted is unknown.
// Connected (is_online) means online or timing out.
const onlineAfter = `now() - (d."poll_interval_ms" * 1.5 + 10000) * interval '1 millisecond'`;
const connectedAfter = `now() - (d."poll_interval_ms" * 2.5 + 10000) * interval '1 millisecond'`;

const isOnlineSql = `coalesce(d."last_contact_at" >= ${connectedAfter}, false)`;

// api_heartbeat_state, is_online, last_connectivity_event (when it became connected, or when it
// was last seen once disconnected) and changed_api_heartbeat_state_on__date, named "hb_*" so they
// do not clash with the stored columns of the same names that d.* still returns.
const heartbeatSql = `
  CROSS JOIN LATERAL (SELECT
    CASE WHEN d."last_contact_at" IS NULL THEN 'unknown'
         WHEN d."last_contact_at" >= ${onlineAfter} THEN 'online'
         WHEN d."last_contact_at" >= ${connectedAfter} THEN 'timeout'
         ELSE 'offline' END AS "hb_state",
    ${isOnlineSql} AS "hb_online") hb
  CROSS JOIN LATERAL (SELECT
    CASE WHEN hb."hb_online" THEN d."connected_since" ELSE d."last_contact_at" END AS "hb_connectivity_event",
    CASE hb."hb_state"
      WHEN 'online' THEN d."online_since"
      WHEN 'timeout' THEN d."last_contact_at" + (d."poll_interval_ms" * 1.5 + 10000) * interval '1 millisecond'
      WHEN 'offline' THEN d."last_contact_at" + (d."poll_interval_ms" * 2.5 + 10000) * interval '1 millisecond'
    END AS "hb_changed_at") hbt`;

// device.overall_status as an application would write it (same rules as the model's).
const overallStatus = `CASE
    WHEN NOT d."is_active" THEN 'inactive'
    WHEN d."provisioning_state" = 'Post-Provisioning' THEN 'post-provisioning'
    WHEN d."last_contact_at" IS NULL THEN 'configuring'
    WHEN d."last_contact_at" < ${connectedAfter} THEN 'disconnected'
    WHEN d."download_progress" < 100
      OR d."status" IN ('Downloading', 'Updating')
      OR d."update_status" IN ('downloading', 'applying changes')
      OR EXISTS (SELECT 1 FROM "image_install" ii WHERE ii."device" = d."id"
                   AND (ii."status" = 'Downloading' OR ii."download_progress" < 100)) THEN 'updating'
    WHEN d."provisioning_progress" IS NOT NULL THEN 'configuring'
    WHEN d."last_contact_at" < ${onlineAfter}
      OR (NOT d."is_connected_to_vpn" AND coalesce(
            (SELECT v."value" FROM "device_config_variable" v
              WHERE v."device" = d."id" AND v."name" IN ${vpnControlNames} ORDER BY v."name" LIMIT 1),
            (SELECT v."value" FROM "application_config_variable" v
              WHERE v."application" = d."belongs_to__application" AND v."name" IN ${vpnControlNames}
              ORDER BY v."name" LIMIT 1),
            'true') <> 'false') THEN 'reduced-functionality'
    ELSE 'operational'
  END`;

// Seeded releases are final, so raw_version is the semver plus "+rev<n>" for re-used versions.
const rawVersion = `r."semver" || CASE WHEN coalesce(r."revision", 0) > 0 THEN '+rev' || r."revision" ELSE '' END`;

// `is_online eq true`: contacted within the connected window (NULL, never contacted, is out).
const pageFilterSql = `d."belongs_to__application" = $2
   AND d."last_contact_at" >= ${connectedAfter}
   AND d."belongs_to__application" IN (${readableFleets})`;

const pageSql = `
  SELECT d."id", d."uuid", d."device_name", ${overallStatus} AS "overall_status",
         CASE WHEN ${isOnlineSql} THEN d."connected_since" ELSE d."last_contact_at" END
           AS "last_connectivity_event",
         json_build_array(json_build_object('slug', dt."slug", 'name', dt."name")) AS "is_of__device_type",
         CASE WHEN r."id" IS NULL THEN '[]'::json
              ELSE json_build_array(json_build_object('commit', r."commit", 'raw_version', ${rawVersion}))
         END AS "is_running__release"
    FROM "device" d
    JOIN "device_type" dt ON dt."id" = d."is_of__device_type"
    LEFT JOIN "release" r ON r."id" = d."is_running__release"
   WHERE ${pageFilterSql}
   ORDER BY d."device_name" ASC
   LIMIT 50 OFFSET $3`;

const countSql = `SELECT count(*) AS "n" FROM "device" d WHERE ${pageFilterSql}`;

const byUuidSql = `
  SELECT d.*, s."overall_status", hb."hb_state", hb."hb_online", hbt."hb_connectivity_event",
         hbt."hb_changed_at",
         CASE s."overall_status"
           WHEN 'updating' THEN greatest(d."download_progress",
             (SELECT max(ii."download_progress") FROM "image_install" ii WHERE ii."device" = d."id"
                AND (ii."status" = 'Downloading' OR ii."download_progress" < 100)))
           WHEN 'configuring' THEN d."provisioning_progress"
         END AS "overall_progress",
         coalesce(d."is_pinned_on__release", a."should_be_running__release") AS "should_be_running__release",
         json_build_array(json_build_object('slug', a."slug")) AS "belongs_to__application",
         json_build_array(json_build_object('slug', dt."slug")) AS "is_of__device_type",
         (SELECT coalesce(json_agg(json_build_object('tag_key', t."tag_key", 'value', t."value")), '[]'::json)
            FROM "device_tag" t WHERE t."device" = d."id") AS "device_tag"
    FROM "device" d
    CROSS JOIN LATERAL (SELECT ${overallStatus} AS "overall_status") s ${heartbeatSql}
    JOIN "application" a ON a."id" = d."belongs_to__application"
    JOIN "device_type" dt ON dt."id" = d."is_of__device_type"
   WHERE d."uuid" = $2 AND d."belongs_to__application" IN (${readableFleets})`;

// Every fleet role but observer may update devices.
const bulkUpdateSql = `
  UPDATE "device" d SET "note" = $2
   WHERE d."id" = ANY($3::integer[])
     AND d."belongs_to__application" IN (${readableFleets} AND fa."role" <> 'observer')`;

const floorSql = `SELECT d."id" FROM "device" d WHERE d."id" = $2 AND d."belongs_to__application" IN (${readableFleets})`;

// ---------------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------------

// Dates come back as ISO strings from the API and as Date objects from pg.
type DateValue = string | Date | null;

const isoDate = (value: DateValue): string | null =>
  value === null ? null : new Date(value).toISOString();

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

const difference = (label: string, engine: string, sql: string): string[] =>
  engine === sql
    ? []
    : [`${label}:\n    engine ${engine.slice(0, 400)}\n    sql    ${sql.slice(0, 400)}`];

const dashboardPage = (
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

type DeviceRow = {
  id: number;
  overall_status: string;
  overall_progress: number | null;
  api_heartbeat_state: string;
  is_online: boolean;
  last_connectivity_event: DateValue;
  changed_api_heartbeat_state_on__date: DateValue;
  belongs_to__application: { slug: string }[];
  is_of__device_type: { slug: string }[];
  device_tag: { tag_key: string; value: string }[];
};

const byUuidPath = (uuid: string): string =>
  `/device(uuid='${uuid}')?$expand=belongs_to__application($select=slug),` +
  'is_of__device_type($select=slug),device_tag($select=tag_key,value)';

const deviceDigest = (rows: DeviceRow[]): string =>
  JSON.stringify(
    rows.map((row) => [
      row.id,
      row.overall_status,
      row.overall_progress,
      row.api_heartbeat_state,
      row.is_online,
      isoDate(row.last_connectivity_event),
      isoDate(row.changed_api_heartbeat_state_on__date),
      row.belongs_to__application.map((fleet) => fleet.slug),
      row.is_of__device_type.map((type) => type.slug),
      row.device_tag.map((tag) => `${tag.tag_key}=${tag.value}`).sort(),
    ]),
  );

// What byUuidSql returns beyond the served fields: columns the API never serves, and the
// computed heartbeat fields under their "hb_*" names.
type SqlDeviceRow = DeviceRow & {
  api_port?: unknown;
  api_secret?: unknown;
  last_contact_at?: unknown;
  poll_interval_ms?: unknown;
  online_since?: unknown;
  connected_since?: unknown;
  metrics_reported_at?: unknown;
  hb_state: string;
  hb_online: boolean;
  hb_connectivity_event: Date | null;
  hb_changed_at: Date | null;
};

const sqlDevice = async (env: BenchEnv, caller: Caller, uuid: string): Promise<DeviceRow[]> => {
  const { rows } = await env.sql.query<SqlDeviceRow>(byUuidSql, [caller.user.userId, uuid]);
  // Columns the API never serves are dropped in JS, and the computed heartbeat fields replace
  // the stale stored columns of the same names, as a hand-written handler would.
  return rows.map(
    ({
      api_port: _port,
      api_secret: _secret,
      last_contact_at: _contact,
      poll_interval_ms: _interval,
      online_since: _onlineSince,
      connected_since: _connectedSince,
      metrics_reported_at: _metrics,
      hb_state,
      hb_online,
      hb_connectivity_event,
      hb_changed_at,
      ...row
    }) => ({
      ...row,
      api_heartbeat_state: hb_state,
      is_online: hb_online,
      last_connectivity_event: hb_connectivity_event,
      changed_api_heartbeat_state_on__date: hb_changed_at,
    }),
  );
};

const deviceByUuid = (
  env: BenchEnv,
  caller: Caller,
  outsider: SeededFleet | undefined,
): Scenario => {
  const uuids = caller.fleets.flatMap((fleet) => fleet.deviceUuids);
  return {
    name: `device by uuid with expansions (${caller.label})`,
    async engine() {
      const rows = await getRows<DeviceRow>(env, byUuidPath(pick(uuids, env.random)), caller.token);
      if (rows.length !== 1) throw new Error(`expected one device, got ${rows.length}`);
    },
    async sql() {
      const rows = await sqlDevice(env, caller, pick(uuids, env.random));
      if (rows.length !== 1) throw new Error(`expected one device, got ${rows.length}`);
    },
    async verify() {
      // The first 60 devices cover every heartbeat layout of seed.ts but the never-contacted one
      // (ids divisible by 300), which is added when the caller has one.
      const ids = caller.fleets.flatMap((fleet) => fleet.deviceIds);
      const neverContacted = ids.findIndex((id) => id % 300 === 0);
      const samples = [
        ...uuids.slice(0, 60),
        neverContacted >= 0 ? uuids[neverContacted] : undefined,
        uuids[uuids.length - 1],
        outsider?.deviceUuids[0],
      ];
      const problems: string[] = [];
      for (const uuid of samples) {
        if (uuid === undefined) continue;
        const engine = await getRows<DeviceRow>(env, byUuidPath(uuid), caller.token);
        const sql = await sqlDevice(env, caller, uuid);
        const expected = uuid === outsider?.deviceUuids[0] ? 0 : 1;
        if (engine.length !== expected) {
          problems.push(
            `uuid ${uuid}: the engine returned ${engine.length} rows, expected ${expected}`,
          );
        }
        problems.push(...difference(`uuid ${uuid}`, deviceDigest(engine), deviceDigest(sql)));
        const engineKeys = Object.keys(engine[0] ?? {}).sort();
        const sqlKeys = Object.keys(sql[0] ?? {}).sort();
        problems.push(
          ...difference(`uuid ${uuid} fields`, engineKeys.join(','), sqlKeys.join(',')),
        );
      }
      return problems;
    },
  };
};

const bulkSize = 200;

// Consecutive calls take consecutive fleets, so the concurrent PATCHes never wait on each other's
// row locks: the scenario measures the write path, not lock queues.
const bulkTargets = (fleets: readonly SeededFleet[], random: () => number) => {
  let next = 0;
  return (): number[] => {
    const fleet = fleets[next++ % fleets.length];
    if (!fleet) throw new Error('no fleets');
    const ids = [...fleet.deviceIds];
    // Partial Fisher-Yates: bulkSize random devices of the fleet.
    for (let i = 0; i < Math.min(bulkSize, ids.length); i++) {
      const j = i + Math.floor(random() * (ids.length - i));
      [ids[i], ids[j]] = [ids[j] as number, ids[i] as number];
    }
    return ids.slice(0, bulkSize);
  };
};

const patchPath = (ids: readonly number[]): string =>
  `/v7/device?$filter=${odata(`id in (${ids.join(',')})`)}`;

const bulkPatch = (env: BenchEnv, caller: Caller): Scenario => {
  const engineTargets = bulkTargets(caller.fleets, env.random);
  const sqlTargets = bulkTargets(caller.fleets, env.random);
  const note = (): string => `bench note ${Math.floor(env.random() * 1e9)}`;
  const sqlUpdate = async (ids: number[], value: string): Promise<void> => {
    const result = await env.sql.query(bulkUpdateSql, [caller.user.userId, value, ids]);
    if (result.rowCount !== ids.length) {
      throw new Error(`updated ${result.rowCount} of ${ids.length} devices`);
    }
  };
  const notedIds = async (value: string): Promise<string> => {
    const { rows } = await env.sql.query<{ id: number }>(
      'SELECT "id" FROM "device" WHERE "note" = $1 ORDER BY "id"',
      [value],
    );
    return rows.map((row) => row.id).join(',');
  };
  return {
    name: `bulk PATCH of ${bulkSize} devices (${caller.label})`,
    async engine() {
      await call(env, 'PATCH', patchPath(engineTargets()), caller.token, { note: note() });
    },
    async sql() {
      await sqlUpdate(sqlTargets(), note());
    },
    async verify() {
      const ids = engineTargets().sort((a, b) => a - b);
      const expected = ids.join(',');
      await call(env, 'PATCH', patchPath(ids), caller.token, { note: 'bench verify engine' });
      const engine = await notedIds('bench verify engine');
      await sqlUpdate(ids, 'bench verify sql');
      const sql = await notedIds('bench verify sql');
      return [
        ...difference('rows changed by the engine PATCH', engine, expected),
        ...difference('rows changed by the SQL UPDATE', sql, expected),
      ];
    },
  };
};

// No engine, no token, no table: the HTTP round trip alone (Fastify plus the fetch client that
// shares this process) against one database round trip.
const httpFloor = (env: BenchEnv): Scenario => ({
  name: 'floor: GET /ping vs SELECT 1',
  async engine() {
    await call(env, 'GET', '/ping', undefined);
  },
  async sql() {
    await env.sql.query('SELECT 1');
  },
});

// The cheapest useful read: shows the fixed cost of the HTTP stack, token check and OData
// compilation, against which the other scenarios' overhead can be read.
const floor = (env: BenchEnv, caller: Caller): Scenario => {
  const ids = caller.fleets.flatMap((fleet) => fleet.deviceIds);
  return {
    name: `floor: device(<id>)?$select=id (${caller.label})`,
    async engine() {
      const rows = await getRows<{ id: number }>(
        env,
        `/device(${pick(ids, env.random)})?$select=id`,
        caller.token,
      );
      if (rows.length !== 1) throw new Error(`expected one device, got ${rows.length}`);
    },
    async sql() {
      const { rows } = await env.sql.query(floorSql, [caller.user.userId, pick(ids, env.random)]);
      if (rows.length !== 1) throw new Error(`expected one device, got ${rows.length}`);
    },
  };
};

export const buildScenarios = (env: BenchEnv): Scenario[] => {
  const { seed, tokens } = env;
  const memberFleets = seed.fleets.filter((fleet) => seed.memberFleetIds.includes(fleet.id));
  const outsider = seed.fleets.find((fleet) => !seed.memberFleetIds.includes(fleet.id));
  const admin: Caller = {
    label: 'org admin',
    user: seed.admin,
    token: tokens.admin,
    fleets: seed.fleets,
  };
  const member: Caller = {
    label: 'fleet member',
    user: seed.member,
    token: tokens.member,
    fleets: memberFleets,
  };
  return [
    httpFloor(env),
    floor(env, admin),
    dashboardPage(env, admin, undefined),
    dashboardPage(env, member, outsider),
    deviceByUuid(env, admin, undefined),
    deviceByUuid(env, member, outsider),
    // Writes last: their dead tuples must not slow the read scenarios down.
    bulkPatch(env, admin),
  ];
};
