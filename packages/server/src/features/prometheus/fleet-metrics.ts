import { deviceStatuses } from '@flotilla/shared/devices/device-statuses';
import type { Queryable } from '../../infra/db/database.js';
import { fleetStatusCount } from '../../model/definitions/device-status-count.js';

export type FleetRow = {
  slug: string;
  devices: number;
  // By overall_status, every status present (0 when none).
  statuses: Record<string, number>;
  updateStatuses: Record<string, number>;
  cpuUsage: number | null;
  memoryUsed: number | null;
  storageUsed: number | null;
  cpuTemp: number | null;
};

export type FleetSnapshot = {
  fleets: FleetRow[];
  // Devices and fleets of the whole installation, those without series of their own included.
  totalDevices: number;
  totalFleets: number;
};

type Row = {
  slug: string;
  devices: string;
  statuses: Record<string, string>;
  update_statuses: Record<string, string> | null;
  cpu_usage: number | null;
  memory_used: number | null;
  storage_used: number | null;
  cpu_temp: number | null;
};

const count = (value: string | undefined): number => Number(value ?? 0);

// One statement: the `limit` fleets with the most devices, each with its devices by status (the
// status tally, a few dozen rows per fleet whatever its size), by update status and the averages
// of their last readings; then the installation's totals. Its cost is bounded by `limit`, not by
// the number of fleets or devices.
export const readFleetSnapshot = async (db: Queryable, limit: number): Promise<FleetSnapshot> => {
  const statusColumns = deviceStatuses
    .map((status) => `'${status}', ${fleetStatusCount('"f"."id"', status)}`)
    .join(', ');
  const { rows } = await db.query<Row>(
    `WITH "top" AS (
       SELECT "a"."id", "a"."slug", "c"."n"
         FROM "application" "a"
         CROSS JOIN LATERAL (SELECT count(*) AS "n" FROM "device" "d"
                              WHERE "d"."belongs_to__application" = "a"."id") "c"
        WHERE "c"."n" > 0
        ORDER BY "c"."n" DESC, "a"."id"
        LIMIT $1
     )
     SELECT "f"."slug", "f"."n" AS "devices",
            jsonb_build_object(${statusColumns}) AS "statuses",
            (SELECT jsonb_object_agg("u"."status", "u"."n") FROM (
               SELECT coalesce("d"."update_status", 'none') AS "status", count(*) AS "n"
                 FROM "device" "d" WHERE "d"."belongs_to__application" = "f"."id" GROUP BY 1) "u")
              AS "update_statuses",
            "m"."cpu_usage", "m"."memory_used", "m"."storage_used", "m"."cpu_temp"
       FROM "top" "f"
       CROSS JOIN LATERAL (
         SELECT avg("d"."cpu_usage")::float8 AS "cpu_usage",
                avg("d"."memory_usage"::float8 / nullif("d"."memory_total", 0))::float8 AS "memory_used",
                avg("d"."storage_usage"::float8 / nullif("d"."storage_total", 0))::float8 AS "storage_used",
                max("d"."cpu_temp")::float8 AS "cpu_temp"
           FROM "device" "d" WHERE "d"."belongs_to__application" = "f"."id" AND "d"."is_active"
       ) "m"
      ORDER BY "f"."n" DESC, "f"."id"`,
    [limit],
  );
  const totals = await db.query<{ devices: string; fleets: string }>(
    `SELECT (SELECT count(*) FROM "device") AS "devices",
            (SELECT count(*) FROM "application" WHERE NOT "is_host") AS "fleets"`,
  );
  return {
    fleets: rows.map((row) => ({
      slug: row.slug,
      devices: count(row.devices),
      statuses: Object.fromEntries(
        deviceStatuses.map((status) => [status, count(row.statuses[status])]),
      ),
      updateStatuses: Object.fromEntries(
        Object.entries(row.update_statuses ?? {}).map(([status, n]) => [status, count(n)]),
      ),
      cpuUsage: row.cpu_usage,
      memoryUsed: row.memory_used,
      storageUsed: row.storage_used,
      cpuTemp: row.cpu_temp,
    })),
    totalDevices: count(totals.rows[0]?.devices),
    totalFleets: count(totals.rows[0]?.fleets),
  };
};
