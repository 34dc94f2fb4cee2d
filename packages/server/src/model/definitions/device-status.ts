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
  // balena's default BALENA_SUPERVISOR_POLL_INTERVAL (10 min).
  defaultPollIntervalMs: 600_000,
  // The server never assumes a device polls more often than this.
  minimumPollIntervalMs: 10_000,
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

// device.api_heartbeat_state: online | timeout | offline | unknown.
export const heartbeatState = (row: string): string =>
  `(CASE
    WHEN ${row}."last_contact_at" IS NULL THEN 'unknown'
    WHEN ${row}."last_contact_at" >= now() - ${onlineWindow(row)} THEN 'online'
    WHEN ${row}."last_contact_at" >= now() - ${offlineWindow(row)} THEN 'timeout'
    ELSE 'offline'
  END)`;

// device.is_online: connected while the heartbeat is online or only timing out.
export const isOnline = (row: string): string =>
  `coalesce(${row}."last_contact_at" >= now() - ${offlineWindow(row)}, false)`;

// device.last_connectivity_event: when a connected device became connected; for a disconnected
// one its last contact (when it was last connected: the thresholds only decide when we notice).
export const lastConnectivityEvent = (row: string): string =>
  `(CASE WHEN ${isOnline(row)} THEN ${row}."connected_since" ELSE ${row}."last_contact_at" END)`;

// device.changed_api_heartbeat_state_on__date: when the heartbeat last changed state.
export const heartbeatChangedAt = (row: string): string =>
  `(CASE ${heartbeatState(row)}
    WHEN 'online' THEN ${row}."online_since"
    WHEN 'timeout' THEN ${row}."last_contact_at" + ${onlineWindow(row)}
    WHEN 'offline' THEN ${row}."last_contact_at" + ${offlineWindow(row)}
    ELSE NULL
  END)`;

// An image install of the device that is still downloading.
const downloadingInstall = (row: string, ii: string): string =>
  `${ii}."device" = ${row}."id" AND (${ii}."status" = 'Downloading' OR (${ii}."download_progress" IS NOT NULL AND ${ii}."download_progress" < 100))`;

// Whether the VPN (cloudlink) is expected: the supervisor's VPN can be switched off with the config
// variable [RESIN|BALENA]_SUPERVISOR_VPN_CONTROL = 'false' on the device, else on its fleet.
const vpnExpected = (row: string): string => {
  const dv = alias('vdc', row);
  const av = alias('vac', row);
  const names = `('RESIN_SUPERVISOR_VPN_CONTROL', 'BALENA_SUPERVISOR_VPN_CONTROL')`;
  return `coalesce((SELECT ${dv}."value" FROM "device_config_variable" ${dv} WHERE ${dv}."device" = ${row}."id" AND ${dv}."name" IN ${names} ORDER BY ${dv}."name" LIMIT 1), (SELECT ${av}."value" FROM "application_config_variable" ${av} WHERE ${av}."application" = ${row}."belongs_to__application" AND ${av}."name" IN ${names} ORDER BY ${av}."name" LIMIT 1), 'true') <> 'false'`;
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
export const overallStatus = (row: string): string => {
  const ii = alias('osii', row);
  return `(CASE
    WHEN NOT ${row}."is_active" THEN 'inactive'
    WHEN ${row}."provisioning_state" = 'Post-Provisioning' THEN 'post-provisioning'
    WHEN ${row}."last_contact_at" IS NULL THEN 'configuring'
    WHEN ${row}."last_contact_at" < now() - ${offlineWindow(row)} THEN 'disconnected'
    WHEN (${row}."download_progress" IS NOT NULL AND ${row}."download_progress" < 100)
      OR ${row}."status" IN ('Downloading', 'Updating')
      OR ${row}."update_status" IN ('downloading', 'applying changes')
      OR EXISTS (SELECT 1 FROM "image_install" ${ii} WHERE ${downloadingInstall(row, ii)}) THEN 'updating'
    WHEN ${row}."provisioning_progress" IS NOT NULL THEN 'configuring'
    WHEN ${row}."last_contact_at" < now() - ${onlineWindow(row)}
      OR (NOT ${row}."is_connected_to_vpn" AND ${vpnExpected(row)}) THEN 'reduced-functionality'
    ELSE 'operational'
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
