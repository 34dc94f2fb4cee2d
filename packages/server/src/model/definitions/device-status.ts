import { pollIntervalLimits } from '@flotilla/shared/device-protocol/poll-interval';
import { alias } from './sql-helpers.js';

// SQL of the computed device fields. `row` is the quoted alias of a device row.

// The heartbeat (balena's api_heartbeat_state) is derived from the last contact and the poll
// interval in effect then (columns of 0004-device-protocol.sql, written by features/heartbeat), so
// it needs no timers and reads nothing but the row:
//   unknown  never contacted;
//   online   while now - last contact <= interval x 1.5 (+ the 10 s write granularity, since the
//            stored contact may be up to that much older than the real one);
//   timeout  for a further grace of one more poll interval;
//   offline  after that.
export const heartbeatTimings = {
  // The poll interval of a device whose config sets none, and the least one the server assumes.
  defaultPollIntervalMs: pollIntervalLimits.defaultMs,
  minimumPollIntervalMs: pollIntervalLimits.minimumMs,
  // A device's last contact is written at most this often.
  contactWriteIntervalMs: 10_000,
  onlineFactor: 1.5,
} as const;

const millis = (sql: string): string => `((${sql}) * interval '1 millisecond')`;

// How long after its last contact a device stays online, then online or timing out, as intervals.
export const onlineWindow = (row: string): string =>
  millis(
    `${row}."poll_interval_ms" * ${heartbeatTimings.onlineFactor} + ${heartbeatTimings.contactWriteIntervalMs}`,
  );

export const offlineWindow = (row: string): string =>
  millis(
    `${row}."poll_interval_ms" * ${heartbeatTimings.onlineFactor + 1} + ${heartbeatTimings.contactWriteIntervalMs}`,
  );

// The deadlines of a contacted device (stored generated columns of
// migrations/0010-device-status-deadlines.sql, computed with the windows above; NULL while never
// contacted): online until online_until, timing out until timeout_until, then offline.
export const onlineUntil = (row: string): string => `${row}."online_until"`;
export const timeoutUntil = (row: string): string => `${row}."timeout_until"`;

// device.api_heartbeat_state: online | timeout | offline | unknown.
export const heartbeatState = (row: string): string =>
  `(CASE
    WHEN ${row}."last_contact_at" IS NULL THEN 'unknown'
    WHEN ${onlineUntil(row)} >= now() THEN 'online'
    WHEN ${timeoutUntil(row)} >= now() THEN 'timeout'
    ELSE 'offline'
  END)`;

// device.is_online: connected while the heartbeat is online or only timing out.
export const isOnline = (row: string): string => `coalesce(${timeoutUntil(row)} >= now(), false)`;

// device.last_connectivity_event: when a connected device became connected; for a disconnected
// one its last contact (when it was last connected: the thresholds only decide when we notice).
export const lastConnectivityEvent = (row: string): string =>
  `(CASE WHEN ${isOnline(row)} THEN ${row}."connected_since" ELSE ${row}."last_contact_at" END)`;

// device.changed_api_heartbeat_state_on__date: when the heartbeat last changed state.
export const heartbeatChangedAt = (row: string): string =>
  `(CASE ${heartbeatState(row)}
    WHEN 'online' THEN ${row}."online_since"
    WHEN 'timeout' THEN ${onlineUntil(row)}
    WHEN 'offline' THEN ${timeoutUntil(row)}
    ELSE NULL
  END)`;

// An image install of the device that is still downloading.
const downloadingInstall = (row: string, ii: string): string =>
  `${ii}."device" = ${row}."id" AND (${ii}."status" = 'Downloading' OR (${ii}."download_progress" IS NOT NULL AND ${ii}."download_progress" < 100))`;

// Whether one of the device's image installs is still downloading, per row.
export const hasDownloadingInstall = (row: string): string => {
  const ii = alias('osii', row);
  return `EXISTS (SELECT 1 FROM "image_install" ${ii} WHERE ${downloadingInstall(row, ii)})`;
};

// The same as one set for the whole statement (PostgreSQL hashes it once, from the partial index
// image_install_downloading_idx), for conditions over many devices.
export const inDownloadingSet = (row: string): string => {
  const ii = alias('dlii', row);
  return `${row}."id" IN (SELECT ${ii}."device" FROM "image_install" ${ii} WHERE ${ii}."status" = 'Downloading' OR (${ii}."download_progress" IS NOT NULL AND ${ii}."download_progress" < 100))`;
};

// The config variable that switches the supervisor's VPN (cloudlink) off ('false'); the BALENA_ name
// wins over the legacy RESIN_ one, a device's own variable over its fleet's.
const vpnControl = ['BALENA_SUPERVISOR_VPN_CONTROL', 'RESIN_SUPERVISOR_VPN_CONTROL'] as const;

// The device's own VPN control value, or NULL (each lookup is one probe of a unique index).
const deviceVpnControl = (row: string): string => {
  const dv = alias('vdc', row);
  return vpnControl
    .map(
      (name) =>
        `(SELECT ${dv}."value" FROM "device_config_variable" ${dv} WHERE ${dv}."device" = ${row}."id" AND ${dv}."name" = '${name}')`,
    )
    .join(', ');
};

// Whether the VPN is expected: its control variable is not 'false' (on the device, else its fleet).
export const vpnExpected = (row: string): string => {
  const av = alias('vac', row);
  const fleet = vpnControl.map(
    (name) =>
      `(SELECT ${av}."value" FROM "application_config_variable" ${av} WHERE ${av}."application" = ${row}."belongs_to__application" AND ${av}."name" = '${name}')`,
  );
  return `coalesce(${deviceVpnControl(row)}, ${fleet.join(', ')}, 'true') <> 'false'`;
};

// The same for conditions over many devices: the devices with a control variable of their own and
// the fleets that switch the VPN off are each one set for the whole statement (hashed once; the
// partial index device_config_variable_vpn_idx finds the former), so a device without a variable
// of its own costs two hash lookups, not four index probes.
export const vpnExpectedOverSets = (row: string): string => {
  const dv = alias('vds', row);
  const av = alias('vas', row);
  const bv = alias('vab', row);
  const [balena, resin] = vpnControl;
  const fleetsOff = `SELECT ${av}."application" FROM "application_config_variable" ${av} WHERE ${av}."value" = 'false' AND (${av}."name" = '${balena}' OR (${av}."name" = '${resin}' AND NOT EXISTS (SELECT 1 FROM "application_config_variable" ${bv} WHERE ${bv}."application" = ${av}."application" AND ${bv}."name" = '${balena}')))`;
  return `(CASE WHEN ${row}."id" IN (SELECT ${dv}."device" FROM "device_config_variable" ${dv} WHERE ${dv}."name" IN ('${resin}', '${balena}'))
    THEN coalesce(${deviceVpnControl(row)}, 'true') <> 'false'
    ELSE NOT (${row}."belongs_to__application" IN (${fleetsOff}))
  END)`;
};

// device.overall_status, first match wins:
//  1. 'inactive'              is_active is false;
//  2. 'post-provisioning'     provisioning_state = 'Post-Provisioning';
//  3. 'configuring'           never contacted (heartbeat 'unknown');
//  4. 'disconnected'          heartbeat 'offline';
//  5. 'updating'              device download_progress is set (below 100), or status is
//                             'Downloading'/'Updating', or update_status is 'downloading'/'applying
//                             changes', or one of its image_install rows is 'Downloading' or has a
//                             download_progress below 100;
//  6. 'configuring'           provisioning_progress is set;
//  7. 'reduced-functionality' heartbeat 'timeout', or online while the VPN is expected but the device
//                             is not connected to it;
//  8. 'operational'           otherwise.
// The stored overall_status_base (0009) is the first of rules 1, 2, 3, 5 (the device's own state),
// 6 and 7 (not connected) that the row matches on its own; the rest is decided here.
export const overallStatus = (row: string): string => {
  const base = `${row}."overall_status_base"`;
  return `(CASE ${base}
    WHEN 'inactive' THEN 'inactive'
    WHEN 'post-provisioning' THEN 'post-provisioning'
    WHEN 'unseen' THEN 'configuring'
    ELSE CASE
      WHEN ${timeoutUntil(row)} < now() THEN 'disconnected'
      WHEN ${base} = 'updating' OR ${hasDownloadingInstall(row)} THEN 'updating'
      WHEN ${base} = 'provisioning' THEN 'configuring'
      WHEN ${onlineUntil(row)} < now() OR (${base} = 'no-vpn' AND ${vpnExpected(row)})
        THEN 'reduced-functionality'
      ELSE 'operational'
    END
  END)`;
};

// device.overall_progress: while updating, the furthest download progress of the device or any of
// its downloading image installs; while configuring, provisioning_progress; otherwise null.
export const overallProgress = (row: string): string => {
  const ii = alias('opii', row);
  return `(CASE ${overallStatus(row)}
    WHEN 'updating' THEN greatest(${row}."download_progress", (SELECT max(${ii}."download_progress") FROM "image_install" ${ii} WHERE ${downloadingInstall(row, ii)}))
    WHEN 'configuring' THEN ${row}."provisioning_progress"
    ELSE NULL
  END)`;
};

// device.should_be_running__release: the pinned release, else the fleet's target release.
export const shouldBeRunningRelease = (row: string): string => {
  const app = alias('sbra', row);
  return `coalesce(${row}."is_pinned_on__release", (SELECT ${app}."should_be_running__release" FROM "application" ${app} WHERE ${app}."id" = ${row}."belongs_to__application"))`;
};
