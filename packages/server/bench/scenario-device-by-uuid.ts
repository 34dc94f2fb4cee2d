import { byUuidSql } from './baseline-sql.js';
import { type BenchEnv, type Caller, pick, type Scenario } from './scenario-env.js';
import { getRows } from './scenario-http.js';
import { type DateValue, difference, isoDate } from './scenario-verify.js';
import type { SeededFleet } from './seed.js';

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

export const deviceByUuid = (
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
