// The hand-written SQL of the reference server's read routes (reference-server.ts), and of the
// scenarios' checks that both sides answer the same.

// The fleets a user may read, written by hand against the same view the engine uses.
const readableFleets = `SELECT fa."application" FROM "fleet_access" fa WHERE fa."user" = $1`;

const vpnControlNames = `('RESIN_SUPERVISOR_VPN_CONTROL', 'BALENA_SUPERVISOR_VPN_CONTROL')`;

// The heartbeat, as an application would write it (same rules as the model's): a device stays
// online for 1.5 poll intervals (+ 10 s, the granularity of the stored contact) after its last
// contact, then times out for one more interval, then is offline; never contacted is unknown.
// Connected (is_online) means online or timing out.
const onlineAfter = `now() - (d."poll_interval_ms" * 1.5 + 10000) * interval '1 millisecond'`;
const connectedAfter = `now() - (d."poll_interval_ms" * 2.5 + 10000) * interval '1 millisecond'`;

export const isOnlineSql = `coalesce(d."last_contact_at" >= ${connectedAfter}, false)`;

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
export const overallStatus = `CASE
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
export const rawVersion = `r."semver" || CASE WHEN coalesce(r."revision", 0) > 0 THEN '+rev' || r."revision" ELSE '' END`;

// `is_online eq true`: contacted within the connected window (NULL, never contacted, is out).
const pageFilterSql = `d."belongs_to__application" = $2
   AND d."last_contact_at" >= ${connectedAfter}
   AND d."belongs_to__application" IN (${readableFleets})`;

export const pageSql = `
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

export const countSql = `SELECT count(*) AS "n" FROM "device" d WHERE ${pageFilterSql}`;

export const byUuidSql = `
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

// The console's fleet list, one status at a time: every fleet the user reaches with the number
// of its devices in that overall status (ids ascending).
export const fleetCountsSql = `
  SELECT a."id",
         (SELECT count(*) FROM "device" d
           WHERE d."belongs_to__application" = a."id" AND (${overallStatus}) = $2) AS "owns__device"
    FROM "application" a
   WHERE a."is_of__class" = 'fleet' AND a."id" IN (${readableFleets})
   ORDER BY a."id"`;

// One fleet's summary, one status at a time: its devices in that overall status.
export const fleetSummarySql = `
  SELECT count(*) AS "n" FROM "device" d
   WHERE d."belongs_to__application" = $2 AND $2 IN (${readableFleets}) AND (${overallStatus}) = $3`;

// The console's release list (packages/web releases/release-queries.ts fetchReleasePage): one
// page of a fleet's releases, newest first, with the author and the number of devices running
// each (those the user may read), and the number of the fleet's releases.
export const releasePageSql = `
  SELECT r."id", r."commit", ${rawVersion} AS "raw_version", r."status", r."created_at",
         r."start_timestamp", r."update_timestamp", r."is_final", r."is_invalidated",
         CASE WHEN u."id" IS NULL THEN '[]'::json
              ELSE json_build_array(json_build_object('id', u."id", 'username', u."username"))
         END AS "is_created_by__user",
         (SELECT count(*) FROM "device" d
           WHERE d."is_running__release" = r."id"
             AND d."belongs_to__application" IN (${readableFleets})) AS "is_running_on__device"
    FROM "release" r
    LEFT JOIN "user" u ON u."id" = r."is_created_by__user"
   WHERE r."belongs_to__application" = $2 AND $2 IN (${readableFleets})
   ORDER BY r."created_at" DESC, r."id" DESC
   LIMIT 50 OFFSET $3`;

export const releaseCountSql = `
  SELECT a."id",
         (SELECT count(*) FROM "release" r WHERE r."belongs_to__application" = a."id")
           AS "owns__release"
    FROM "application" a
   WHERE a."id" = $2 AND a."id" IN (${readableFleets})`;
