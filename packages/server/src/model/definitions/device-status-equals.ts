import type { LiteralValue } from '../model-types.js';
import {
  inDownloadingSet,
  onlineUntil,
  timeoutUntil,
  vpnExpectedOverSets,
} from './device-status.js';

// `field eq <value>` for the computed device fields, as conditions PostgreSQL answers from the
// status index (device_status_idx: fleet, overall_status_base, timeout_until, online_until) rather
// than by computing the field for every device: a status count reads the index alone. Each has the
// value of the field's own comparison on every row (never NULL, as the fields never are):
// device-status-equals.int.test.ts checks that on devices in every state. The sargable conditions
// stand alone at the top level, even where another part already implies them, for the planner.

const bases = {
  // Contacted, active, not post-provisioning: the statuses decided by the deadlines.
  contacted: `('updating', 'provisioning', 'no-vpn', 'ok')`,
  // Contacted and neither updating nor provisioning on its own.
  quiet: `('no-vpn', 'ok')`,
};

// overall_status = value (see overallStatus in device-status.ts for the rules).
export const overallStatusIs = (row: string, value: LiteralValue): string => {
  const base = `${row}."overall_status_base"`;
  const live = `${timeoutUntil(row)} >= now()`;
  switch (value) {
    case 'inactive':
    case 'post-provisioning':
      return `${base} = '${value}'`;
    case 'configuring':
      return `${base} IN ('unseen', 'provisioning') AND (${base} = 'unseen' OR (${live} AND NOT ${inDownloadingSet(row)}))`;
    case 'disconnected':
      return `${base} IN ${bases.contacted} AND ${timeoutUntil(row)} < now()`;
    case 'updating':
      return `${base} IN ${bases.contacted} AND ${live} AND (${base} = 'updating' OR ${inDownloadingSet(row)})`;
    case 'reduced-functionality':
      return `${base} IN ${bases.quiet} AND ${live} AND NOT ${inDownloadingSet(row)} AND (${onlineUntil(row)} < now() OR (${base} = 'no-vpn' AND ${vpnExpectedOverSets(row)}))`;
    case 'operational':
      return `${base} IN ${bases.quiet} AND ${live} AND ${onlineUntil(row)} >= now() AND NOT ${inDownloadingSet(row)} AND (${base} = 'ok' OR NOT (${vpnExpectedOverSets(row)}))`;
    default:
      // No device has any other status.
      return 'false';
  }
};

// is_online = value: connected until timeout_until (NULL, never contacted, is not connected).
export const isOnlineIs = (row: string, value: LiteralValue): string =>
  value === true
    ? `${timeoutUntil(row)} >= now() AND ${timeoutUntil(row)} IS NOT NULL`
    : `(${timeoutUntil(row)} >= now()) IS NOT TRUE`;

// api_heartbeat_state = value.
export const heartbeatStateIs = (row: string, value: LiteralValue): string => {
  const contacted = `${row}."last_contact_at" IS NOT NULL`;
  switch (value) {
    case 'unknown':
      return `${row}."last_contact_at" IS NULL`;
    case 'online':
      return `${onlineUntil(row)} >= now() AND ${contacted}`;
    case 'timeout':
      return `${onlineUntil(row)} < now() AND ${timeoutUntil(row)} >= now() AND ${contacted}`;
    case 'offline':
      return `${onlineUntil(row)} < now() AND ${timeoutUntil(row)} < now() AND ${contacted}`;
    default:
      return 'false';
  }
};
