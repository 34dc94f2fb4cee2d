// The per-request contact write before device contacts were batched (features/heartbeat), kept
// unchanged as the reference of the differential state-report test.
import type { Queryable } from '../../infra/db/database.js';
import {
  heartbeatTimings,
  offlineWindow,
  onlineWindow,
} from '../../model/definitions/device-status.js';

// The config variables that set how often a device polls for its target state, in milliseconds;
// the BALENA_ name wins over the legacy RESIN_ one (it sorts first).
export const pollIntervalVarNames = [
  'BALENA_SUPERVISOR_POLL_INTERVAL',
  'RESIN_SUPERVISOR_POLL_INTERVAL',
] as const;

const maxInteger = 2_147_483_647;

// A poll interval value as the server uses it: whole milliseconds, never below the server
// minimum; undefined when the value is not a number at all.
export const clampPollInterval = (value: string): number | undefined => {
  if (!/^\d{1,12}$/.test(value.trim())) return undefined;
  return Math.min(
    Math.max(Number(value.trim()), heartbeatTimings.minimumPollIntervalMs),
    maxInteger,
  );
};

const intervalVar = (table: string, owner: string, ownerSql: string): string =>
  `(SELECT v."value"::bigint FROM "${table}" v WHERE v."${owner}" = ${ownerSql} AND v."name" IN ('${pollIntervalVarNames.join("', '")}') AND v."value" ~ '^[0-9]{1,12}$' ORDER BY v."name" LIMIT 1)`;

// The device's poll interval: its own config variable, else its fleet's, else balena's default,
// raised to the server minimum.
const pollIntervalSql = (row: string): string =>
  `least(greatest(coalesce(${intervalVar('device_config_variable', 'device', `${row}."id"`)}, ${intervalVar('application_config_variable', 'application', `${row}."belongs_to__application"`)}, ${heartbeatTimings.defaultPollIntervalMs}), ${heartbeatTimings.minimumPollIntervalMs}), ${maxInteger})::integer`;

// Records an authenticated contact by a device (target-state poll, state report, log stream,
// cloudlink): the heartbeat fields are derived from it (model/definitions/device-status.ts). At
// most one write per device per 10 s, decided by the row itself so every process agrees; the
// "since" columns restart when the previous contact had already timed out (online_since) or gone
// offline (connected_since), judged with the interval that was in effect then. True when written.
export const recordDeviceContact = async (
  db: Queryable,
  deviceId: number,
  now: Date,
): Promise<boolean> => {
  const at = '$2::timestamptz';
  const { rowCount } = await db.query(
    `UPDATE "device" d SET
       "last_contact_at" = ${at},
       "poll_interval_ms" = ${pollIntervalSql('d')},
       "online_since" = CASE WHEN d."last_contact_at" IS NULL OR d."last_contact_at" < ${at} - ${onlineWindow('d')}
         THEN ${at} ELSE d."online_since" END,
       "connected_since" = CASE WHEN d."last_contact_at" IS NULL OR d."last_contact_at" < ${at} - ${offlineWindow('d')}
         THEN ${at} ELSE d."connected_since" END
     WHERE d."id" = $1
       AND (d."last_contact_at" IS NULL OR d."last_contact_at" <= ${at} - $3 * interval '1 millisecond')`,
    [deviceId, now, heartbeatTimings.contactWriteIntervalMs],
  );
  return rowCount > 0;
};
