import type { LiteralValue } from '../model-types.js';
import { overallStatus } from './device-status.js';

// How many devices of one fleet have a given overall_status, from the per-fleet tally that
// PostgreSQL keeps (migrations/0022-device-status-tally.sql) instead of from every device row: the
// cost follows the number of tally rows of the fleet (a few dozen), not its devices. Exactly the
// count of `overall_status = value` over the fleet's devices (device-status-count.int.test.ts
// checks it against that through every kind of change and over time).
//
// A tally row holds the devices with one (base, poll interval, minute of timeout_until). Whether
// they are online, timing out or offline at now() follows from the row (its "phase"); when now()
// falls inside the row's range of deadlines ('straddle', a few devices that went quiet lately) its
// devices are counted one by one. The status a row's devices have by the row alone (the "plain"
// status) ignores what only some devices have: an image install still downloading (updating) and a
// VPN control variable of their own; those devices (few) are counted with the exact rule instead.

const bin = "interval '1 minute'";
const millis = (sql: string): string => `(${sql}) * interval '1 millisecond'`;

// The phase of the devices of a tally key at now(): none (never contacted, inactive,
// post-provisioning), online, timeout, offline, or straddle (mixed: count them one by one).
// online_until is timeout_until less one poll interval (0010), so it lies in [bin - poll, bin + 1
// min - poll) and timeout_until in [bin, bin + 1 min).
const phase = (base: string, poll: string, start: string): string =>
  `(CASE
    WHEN ${base} IN ('inactive', 'post-provisioning', 'unseen') THEN 'none'
    WHEN ${start} + ${bin} <= now() THEN 'offline'
    WHEN ${start} - ${millis(poll)} >= now() THEN 'online'
    WHEN ${start} + ${bin} - ${millis(poll)} <= now() AND ${start} >= now() THEN 'timeout'
    ELSE 'straddle'
  END)`;

// Whether the fleet expects the VPN (its own control variable is not 'false'; the BALENA_ name
// wins over the RESIN_ one), as overallStatus decides it for a device without a variable of its own.
const fleetVpnExpected = (fleet: string): string =>
  `(coalesce(${['BALENA_SUPERVISOR_VPN_CONTROL', 'RESIN_SUPERVISOR_VPN_CONTROL']
    .map(
      (name) =>
        `(SELECT "tly_v"."value" FROM "application_config_variable" "tly_v" WHERE "tly_v"."application" = ${fleet} AND "tly_v"."name" = '${name}')`,
    )
    .join(', ')}, 'true') <> 'false')`;

// overall_status by the rules of overallStatus (device-status.ts) for a device with neither a
// downloading image install nor a VPN variable of its own, from its base and phase and whether its
// fleet expects the VPN.
const plainStatus = (base: string, keyPhase: string, vpnExpected: string): string =>
  `(CASE
    WHEN ${base} = 'inactive' THEN 'inactive'
    WHEN ${base} = 'post-provisioning' THEN 'post-provisioning'
    WHEN ${base} = 'unseen' THEN 'configuring'
    WHEN ${keyPhase} = 'offline' THEN 'disconnected'
    WHEN ${base} = 'updating' THEN 'updating'
    WHEN ${base} = 'provisioning' THEN 'configuring'
    WHEN ${keyPhase} = 'timeout' THEN 'reduced-functionality'
    WHEN ${base} = 'no-vpn' AND ${vpnExpected} THEN 'reduced-functionality'
    ELSE 'operational'
  END)`;

// The bases of contacted devices (the heartbeat decides part of their status).
const contacted = ['updating', 'provisioning', 'no-vpn', 'ok'] as const;

// The bases whose rows can have each status as their plain status (an index range of the tally).
const plainBases: Record<string, readonly string[]> = {
  inactive: ['inactive'],
  'post-provisioning': ['post-provisioning'],
  configuring: ['unseen', 'provisioning'],
  disconnected: contacted,
  updating: ['updating'],
  'reduced-functionality': ['no-vpn', 'ok'],
  operational: ['no-vpn', 'ok'],
};

const sqlList = (values: readonly string[]): string => `('${values.join("', '")}')`;

// A device's phase from its own deadlines (as overallStatus compares them with now()).
const devicePhase = (d: string): string =>
  `(CASE
    WHEN ${d}."overall_status_base" IN ('inactive', 'post-provisioning', 'unseen') THEN 'none'
    WHEN ${d}."online_until" >= now() THEN 'online'
    WHEN ${d}."timeout_until" >= now() THEN 'timeout'
    ELSE 'offline'
  END)`;

// The devices whose status the plain rule may get wrong (the sets of device-status-equals.ts).
const exceptionalDevices = `(SELECT "tly_i"."device" FROM "image_install" "tly_i" WHERE "tly_i"."status" = 'Downloading' OR ("tly_i"."download_progress" IS NOT NULL AND "tly_i"."download_progress" < 100)
  UNION SELECT "tly_c"."device" FROM "device_config_variable" "tly_c" WHERE "tly_c"."name" IN ('RESIN_SUPERVISOR_VPN_CONTROL', 'BALENA_SUPERVISOR_VPN_CONTROL'))`;

// The number of devices of the fleet `fleet` (SQL of its id) whose overall_status is `value`:
// the plain status of every device (whole rows, or one by one for straddling rows), corrected
// for the exceptional devices.
export const fleetStatusCount = (fleet: string, value: LiteralValue): string => {
  const bases = typeof value === 'string' ? plainBases[value] : undefined;
  if (!bases) return '0::bigint';
  const status = `'${value}'`;
  const rowPhase = phase('"tly"."base"', '"tly"."poll_interval_ms"', '"tly"."bin"');
  // The devices of a straddling row (a device_status_idx range), by their own deadlines.
  const straddling = `(SELECT count(*) FROM "device" "tly_d"
    WHERE "tly_d"."belongs_to__application" = "tly"."application"
      AND "tly_d"."overall_status_base" = "tly"."base" AND "tly_d"."timeout_until" >= "tly"."bin"
      AND "tly_d"."timeout_until" < "tly"."bin" + ${bin} AND "tly_d"."poll_interval_ms" = "tly"."poll_interval_ms"
      AND ${plainStatus('"tly_d"."overall_status_base"', devicePhase('"tly_d"'), '"tly"."vpn"')} = ${status})`;
  const plain = `(SELECT coalesce(sum(CASE
        WHEN "tly"."phase" = 'straddle' THEN ${straddling}
        WHEN ${plainStatus('"tly"."base"', '"tly"."phase"', '"tly"."vpn"')} = ${status} THEN "tly"."n"
        ELSE 0 END), 0)
    FROM (SELECT "tly".*, ${rowPhase} AS "phase", ${fleetVpnExpected(fleet)} AS "vpn"
            FROM "device_status_tally" "tly"
           WHERE "tly"."application" = ${fleet} AND "tly"."base" IN ${sqlList(bases)}
          OFFSET 0) "tly")`;
  // Exceptional devices: their exact status instead of the plain one. One set for the whole
  // statement (uncorrelated, so PostgreSQL computes it once), per fleet.
  const exact = `(CASE WHEN ${overallStatus('"tly_x"')} = ${status} THEN 1 ELSE 0 END)`;
  const assumed = `(CASE WHEN ${plainStatus('"tly_x"."overall_status_base"', devicePhase('"tly_x"'), fleetVpnExpected('"tly_x"."belongs_to__application"'))} = ${status} THEN 1 ELSE 0 END)`;
  const corrections = `(SELECT jsonb_object_agg("tly_s"."fleet", "tly_s"."delta") FROM (
      SELECT "tly_x"."belongs_to__application" AS "fleet", sum(${exact} - ${assumed}) AS "delta"
        FROM "device" "tly_x"
       WHERE "tly_x"."id" IN ${exceptionalDevices}
       GROUP BY 1) "tly_s")`;
  return `(${plain} + coalesce((${corrections} ->> (${fleet})::text)::bigint, 0))::bigint`;
};
