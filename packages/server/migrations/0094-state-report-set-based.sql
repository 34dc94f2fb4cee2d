-- State reports applied set-based (features/device-state/state-report-writer.ts): a batch of
-- reports from many devices is read, its installs written and its device rows updated by a few
-- statements for the whole batch instead of a function call and a dozen statements per report.
-- The rules are 0009's, unchanged; 0079's signature and answers are kept.
--
-- Two reports of one device in one batch apply one after the other, in the order given: the
-- batch is cut into layers (a device's first report, its second, ...), each layer set-based.
--
-- The apps digest (device.applied_apps_digest) is now in two parts, "<what the installs are
-- computed from>:<the installs>". A report whose first part differs (every report that changes
-- its apps section) skips reading its installs for the check; the installs part is read once,
-- after they are written. Digests written before this migration differ once, then are rewritten.


CREATE TYPE flotilla_state_report_item AS (
  "n" integer,               -- the report's position in the batch
  "device_id" integer,
  "reported_at" timestamptz,
  "changes" jsonb,           -- the device columns to set (the report's, update status, running release)
  "apps" json,
  "agent_profile" jsonb,
  "own" boolean,             -- the device with this id has this uuid
  "fleet" integer,
  "fleet_uuid" text,
  "target" integer,
  "apps_key" text,           -- the digest's first part (NULL without apps)
  "applied_digest" text
);

-- The digest's second part: a device's image and service installs.
CREATE FUNCTION flotilla_installs_digest(device_id integer) RETURNS text
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN md5(concat_ws('|',
    coalesce((SELECT string_agg(concat_ws(':', ii."installs__image", ii."status",
                                 coalesce(ii."download_progress"::text, '-'), ii."is_provided_by__release"),
                       ',' ORDER BY ii."installs__image")
                FROM "image_install" ii WHERE ii."device" = device_id), ''),
    coalesce((SELECT string_agg(si."installs__service"::text, ',' ORDER BY si."installs__service")
                FROM "service_install" si WHERE si."device" = device_id), '')));
END $$;

-- The installs the apps sections of reports describe (0009's rules, for many devices at once;
-- one report per device), written where they differ from the stored ones.
CREATE FUNCTION flotilla_apply_reported_installs_batch(items flotilla_state_report_item[])
  RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  WITH todo AS (
    SELECT it."device_id", it."fleet", it."target", it."apps", it."reported_at" FROM unnest(items) it
  ), reported_service AS (
    SELECT td."device_id", app.key AS app_uuid, rel.key AS commit, svc.key AS service_name,
           coalesce(svc.value ->> 'status', 'Unknown') AS status,
           (svc.value ->> 'download_progress')::integer AS progress,
           app.n AS app_n, rel.n AS rel_n, svc.n AS svc_n
      FROM todo td
     CROSS JOIN LATERAL json_each(td."apps") WITH ORDINALITY AS app(key, value, n)
     CROSS JOIN LATERAL json_each(coalesce(app.value -> 'releases', '{}'::json))
           WITH ORDINALITY AS rel(key, value, n)
     CROSS JOIN LATERAL json_each(coalesce(rel.value -> 'services', '{}'::json))
           WITH ORDINALITY AS svc(key, value, n)
  ), resolved AS (
    SELECT DISTINCT rs."device_id", a."uuid" AS app_uuid, r."commit", r."id", a."id" AS app_id
      FROM reported_service rs
      JOIN todo td ON td."device_id" = rs."device_id"
      JOIN "application" a ON a."uuid" = rs.app_uuid
      JOIN "release" r ON r."belongs_to__application" = a."id" AND r."commit" = rs.commit
     WHERE a."id" = td."fleet" OR a."is_public"
  ), release_service_image AS (
    -- Should a release hold two images of one service, the newest counts.
    SELECT DISTINCT ON (ri."is_part_of__release", s."service_name")
           ri."is_part_of__release" AS release, s."service_name", i."id" AS image, s."id" AS service
      FROM "release_image" ri
      JOIN "image" i ON i."id" = ri."image"
      JOIN "service" s ON s."id" = i."is_a_build_of__service"
     WHERE ri."is_part_of__release" IN (SELECT resolved."id" FROM resolved)
     ORDER BY ri."is_part_of__release", s."service_name", i."id" DESC
  ), chosen AS (
    SELECT DISTINCT ON (rs."device_id", rsi.image) rs."device_id", rsi.image, rsi.service,
           res."id" AS release, res.app_id, rs.status, rs.progress, td."fleet", td."reported_at"
      FROM reported_service rs
      JOIN todo td ON td."device_id" = rs."device_id"
      JOIN resolved res ON res."device_id" = rs."device_id" AND res.app_uuid = rs.app_uuid
                       AND res."commit" = rs.commit
      JOIN release_service_image rsi ON rsi.release = res."id" AND rsi.service_name = rs.service_name
     ORDER BY rs."device_id", rsi.image, (res."id" = td."target") IS TRUE DESC, rs.app_n, rs.rel_n,
              rs.svc_n
  ), inserted AS (
    -- New installs only, and existing ones rewritten only when they differ: an ON CONFLICT ...
    -- DO UPDATE would lock (write) every existing row even when it changes nothing.
    INSERT INTO "image_install"
           ("device", "installs__image", "status", "download_progress", "is_provided_by__release", "install_date")
    SELECT c."device_id", c.image, c.status, c.progress, c.release, c."reported_at" FROM chosen c
     WHERE NOT EXISTS (SELECT 1 FROM "image_install" ii
                        WHERE ii."device" = c."device_id" AND ii."installs__image" = c.image)
     ORDER BY c."device_id", c.image
    ON CONFLICT ("device", "installs__image") DO NOTHING
  ), updated AS (
    UPDATE "image_install" ii SET
      "status" = c.status, "download_progress" = c.progress, "is_provided_by__release" = c.release
      FROM chosen c
     WHERE ii."device" = c."device_id" AND ii."installs__image" = c.image
       AND (ii."status", ii."download_progress", ii."is_provided_by__release")
           IS DISTINCT FROM (c.status, c.progress, c.release)
  ), removed AS (
    DELETE FROM "image_install" ii
     USING todo td
     WHERE ii."device" = td."device_id"
       AND NOT EXISTS (SELECT 1 FROM chosen c
                        WHERE c."device_id" = ii."device" AND c.image = ii."installs__image")
  )
  INSERT INTO "service_install" ("device", "installs__service")
  SELECT DISTINCT c."device_id", c.service FROM chosen c
   WHERE c.app_id = c."fleet"
     AND NOT EXISTS (SELECT 1 FROM "service_install" si
                      WHERE si."device" = c."device_id" AND si."installs__service" = c.service)
  ON CONFLICT ("device", "installs__service") DO NOTHING;
END $$;

-- One layer of a batch: the reports at positions `picked` of the arrays, one per device.
-- A row per report: its position, whether the device with that id has that uuid, its fleet.
CREATE FUNCTION flotilla_apply_state_report_layer(
  device_ids integer[],
  device_uuids text[],
  reported_at timestamptz[],
  device_columns jsonb[],
  apps json[],
  agent_profiles jsonb[],
  picked integer[]
) RETURNS TABLE ("position" integer, "own" boolean, "fleetId" integer, "fleetUuid" text)
  LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  items flotilla_state_report_item[];
  todo flotilla_state_report_item[];
  digests jsonb[];
BEGIN
  -- Two reports of one device never interleave (the lock 0009 takes), taken in device order.
  -- An advisory lock, unlike FOR UPDATE, writes nothing: an unchanged report stays read-only.
  PERFORM pg_advisory_xact_lock(7461003, x.id)
     FROM (SELECT DISTINCT device_ids[p] AS id FROM unnest(picked) p ORDER BY 1) x;

  -- One read for the whole layer: each device, its fleet, its target release (pinned, else the
  -- fleet's), the release its report says it runs, the epochs of the fleets the report names,
  -- and from these the columns to set.
  WITH input AS (
    SELECT p AS n, device_ids[p] AS device_id, device_uuids[p] AS device_uuid,
           reported_at[p] AS at, device_columns[p] AS cols, apps[p] AS report_apps,
           agent_profiles[p] AS profile
      FROM unnest(picked) p
  ), found AS (
    SELECT i.*, a."id" AS fleet, a."uuid" AS fleet_uuid, t."id" AS target, t."commit" AS target_commit,
           d."applied_apps_digest" AS applied_digest, i.report_apps -> a."uuid" AS fleet_app,
           (SELECT r."id" FROM "release" r
             WHERE r."belongs_to__application" = a."id"
               AND r."commit" = i.report_apps -> a."uuid" ->> 'release_uuid') AS running,
           (SELECT string_agg(x."id" || ':' || x."state_report_epoch", ',' ORDER BY x."id")
              FROM "application" x
             WHERE i.report_apps IS NOT NULL
               AND (x."id" = a."id" OR x."uuid" IN (SELECT json_object_keys(i.report_apps)))) AS epochs
      FROM input i
      LEFT JOIN "device" d ON d."id" = i.device_id AND d."uuid" = i.device_uuid
      LEFT JOIN "application" a ON a."id" = d."belongs_to__application"
      LEFT JOIN "release" t ON t."id" = coalesce(d."is_pinned_on__release", a."should_be_running__release")
  ), derived AS (
    SELECT f.*,
           -- update_status, when the report sets none itself: the fleet app's entry of the target
           -- release first, then the running release's, then the first reported.
           CASE WHEN f.fleet_app IS NOT NULL AND NOT (f.cols ? 'update_status') THEN
             (SELECT rel.value -> 'update_status'
                FROM json_each(coalesce(f.fleet_app -> 'releases', '{}'::json))
                     WITH ORDINALITY AS rel(commit, value, k)
               WHERE json_typeof(rel.value -> 'update_status') IS NOT NULL
               ORDER BY (rel.commit = f.target_commit) IS TRUE DESC,
                        (rel.commit = f.fleet_app ->> 'release_uuid') IS TRUE DESC,
                        rel.k
               LIMIT 1)
           END AS derived_status
      FROM found f
  )
  SELECT array_agg(ROW(
           dv.n, dv.device_id, dv.at,
           dv.cols
             || CASE WHEN dv.derived_status IS NOT NULL
                     THEN jsonb_build_object('update_status', dv.derived_status::jsonb)
                     ELSE '{}'::jsonb END
             || CASE WHEN json_typeof(dv.fleet_app -> 'release_uuid') = 'null'
                       THEN '{"is_running__release": null}'::jsonb
                     WHEN json_typeof(dv.fleet_app -> 'release_uuid') = 'string' AND dv.running IS NOT NULL
                       THEN jsonb_build_object('is_running__release', dv.running)
                     ELSE '{}'::jsonb END,
           dv.report_apps, dv.profile, dv.fleet IS NOT NULL, dv.fleet, dv.fleet_uuid, dv.target,
           CASE WHEN dv.report_apps IS NOT NULL THEN
             md5(concat_ws('|', dv.report_apps::text, dv.fleet, coalesce(dv.target::text, '-'),
                           coalesce(dv.epochs, '-')))
           END,
           dv.applied_digest)::flotilla_state_report_item ORDER BY dv.n)
    INTO items
    FROM derived dv;

  -- The installs, unless they would come out as they are: the digest's first part names what
  -- they are computed from, its second the installs as the last report that computed them left
  -- them (read only when the first part matches).
  SELECT array_agg(it ORDER BY it."device_id") INTO todo
    FROM unnest(items) it
   WHERE it."own" AND it."apps" IS NOT NULL
     AND (it."applied_digest" IS NULL
          OR split_part(it."applied_digest", ':', 1) <> it."apps_key"
          OR it."applied_digest" <> it."apps_key" || ':' || flotilla_installs_digest(it."device_id"));
  IF todo IS NOT NULL THEN
    PERFORM flotilla_apply_reported_installs_batch(todo);
    -- The epochs as read before: a release change committed meanwhile is seen next time. The
    -- installs part as flotilla_installs_digest computes it, for the whole layer at once.
    WITH ids AS (
      SELECT t."device_id" AS id FROM unnest(todo) t
    ), images AS (
      SELECT ii."device", string_agg(concat_ws(':', ii."installs__image", ii."status",
                                      coalesce(ii."download_progress"::text, '-'), ii."is_provided_by__release"),
                                     ',' ORDER BY ii."installs__image") AS list
        FROM "image_install" ii WHERE ii."device" IN (SELECT ids.id FROM ids)
       GROUP BY ii."device"
    ), services AS (
      SELECT si."device", string_agg(si."installs__service"::text, ',' ORDER BY si."installs__service") AS list
        FROM "service_install" si WHERE si."device" IN (SELECT ids.id FROM ids)
       GROUP BY si."device"
    )
    SELECT array_agg(jsonb_build_object('applied_apps_digest',
             it."apps_key" || ':' || md5(concat_ws('|', coalesce(img.list, ''), coalesce(svc.list, ''))))
             ORDER BY it."device_id")
      INTO digests
      FROM unnest(todo) it
      LEFT JOIN images img ON img."device" = it."device_id"
      LEFT JOIN services svc ON svc."device" = it."device_id";
  END IF;

  -- The columns a report may set (state-report-schema.ts, less the metrics), the running
  -- release and the digest; a row is written only when one of them changes.
  UPDATE "device" d SET
      "status" = CASE WHEN r.ch ? 'status' THEN (r.rec)."status" ELSE d."status" END,
      "os_version" = CASE WHEN r.ch ? 'os_version' THEN (r.rec)."os_version" ELSE d."os_version" END,
      "os_variant" = CASE WHEN r.ch ? 'os_variant' THEN (r.rec)."os_variant" ELSE d."os_variant" END,
      "supervisor_version" = CASE WHEN r.ch ? 'supervisor_version' THEN (r.rec)."supervisor_version" ELSE d."supervisor_version" END,
      "provisioning_progress" = CASE WHEN r.ch ? 'provisioning_progress' THEN (r.rec)."provisioning_progress" ELSE d."provisioning_progress" END,
      "provisioning_state" = CASE WHEN r.ch ? 'provisioning_state' THEN (r.rec)."provisioning_state" ELSE d."provisioning_state" END,
      "ip_address" = CASE WHEN r.ch ? 'ip_address' THEN (r.rec)."ip_address" ELSE d."ip_address" END,
      "mac_address" = CASE WHEN r.ch ? 'mac_address' THEN (r.rec)."mac_address" ELSE d."mac_address" END,
      "api_port" = CASE WHEN r.ch ? 'api_port' THEN (r.rec)."api_port" ELSE d."api_port" END,
      "api_secret" = CASE WHEN r.ch ? 'api_secret' THEN (r.rec)."api_secret" ELSE d."api_secret" END,
      "cpu_id" = CASE WHEN r.ch ? 'cpu_id' THEN (r.rec)."cpu_id" ELSE d."cpu_id" END,
      "is_undervolted" = CASE WHEN r.ch ? 'is_undervolted' THEN (r.rec)."is_undervolted" ELSE d."is_undervolted" END,
      "download_progress" = CASE WHEN r.ch ? 'download_progress' THEN (r.rec)."download_progress" ELSE d."download_progress" END,
      "update_status" = CASE WHEN r.ch ? 'update_status' THEN (r.rec)."update_status" ELSE d."update_status" END,
      "is_running__release" = CASE WHEN r.ch ? 'is_running__release' THEN (r.rec)."is_running__release" ELSE d."is_running__release" END,
      "applied_apps_digest" = CASE WHEN r.ch ? 'applied_apps_digest' THEN (r.rec)."applied_apps_digest" ELSE d."applied_apps_digest" END,
      "last_update_status_event" = CASE
        WHEN r.ch ? 'update_status' AND d."update_status" IS DISTINCT FROM (r.rec)."update_status"
        THEN r.at ELSE d."last_update_status_event" END
    FROM (
      SELECT c.device_id, c.ch, c.at, jsonb_populate_record(NULL::"device", c.ch) AS rec
        FROM (
          SELECT it."device_id", it."reported_at" AS at,
                 it."changes" || coalesce(dg.digest, '{}'::jsonb) AS ch
            FROM unnest(items) it
            LEFT JOIN unnest(
                   (SELECT array_agg(t."device_id" ORDER BY t."device_id") FROM unnest(todo) t),
                   digests) AS dg(device_id, digest) ON dg.device_id = it."device_id"
           WHERE it."own"
        ) c
       WHERE c.ch <> '{}'::jsonb
       ORDER BY c.device_id
    ) r
   WHERE d."id" = r.device_id
     AND ((r.ch ? 'status' AND d."status" IS DISTINCT FROM (r.rec)."status")
         OR (r.ch ? 'os_version' AND d."os_version" IS DISTINCT FROM (r.rec)."os_version")
         OR (r.ch ? 'os_variant' AND d."os_variant" IS DISTINCT FROM (r.rec)."os_variant")
         OR (r.ch ? 'supervisor_version' AND d."supervisor_version" IS DISTINCT FROM (r.rec)."supervisor_version")
         OR (r.ch ? 'provisioning_progress' AND d."provisioning_progress" IS DISTINCT FROM (r.rec)."provisioning_progress")
         OR (r.ch ? 'provisioning_state' AND d."provisioning_state" IS DISTINCT FROM (r.rec)."provisioning_state")
         OR (r.ch ? 'ip_address' AND d."ip_address" IS DISTINCT FROM (r.rec)."ip_address")
         OR (r.ch ? 'mac_address' AND d."mac_address" IS DISTINCT FROM (r.rec)."mac_address")
         OR (r.ch ? 'api_port' AND d."api_port" IS DISTINCT FROM (r.rec)."api_port")
         OR (r.ch ? 'api_secret' AND d."api_secret" IS DISTINCT FROM (r.rec)."api_secret")
         OR (r.ch ? 'cpu_id' AND d."cpu_id" IS DISTINCT FROM (r.rec)."cpu_id")
         OR (r.ch ? 'is_undervolted' AND d."is_undervolted" IS DISTINCT FROM (r.rec)."is_undervolted")
         OR (r.ch ? 'download_progress' AND d."download_progress" IS DISTINCT FROM (r.rec)."download_progress")
         OR (r.ch ? 'update_status' AND d."update_status" IS DISTINCT FROM (r.rec)."update_status")
         OR (r.ch ? 'is_running__release' AND d."is_running__release" IS DISTINCT FROM (r.rec)."is_running__release")
         OR (r.ch ? 'applied_apps_digest' AND d."applied_apps_digest" IS DISTINCT FROM (r.rec)."applied_apps_digest"));

  -- The agent's profile when the report carries one, written only when it differs.
  UPDATE "device" d SET "agent_profile" = it."agent_profile"
    FROM unnest(items) it
   WHERE it."own" AND it."agent_profile" IS NOT NULL AND d."id" = it."device_id"
     AND d."agent_profile" IS DISTINCT FROM it."agent_profile";

  RETURN QUERY
    SELECT it."n", it."own", CASE WHEN it."own" THEN it."fleet" END,
           CASE WHEN it."own" THEN it."fleet_uuid" END
      FROM unnest(items) it;
END $$;

CREATE OR REPLACE FUNCTION flotilla_apply_state_reports(
  device_ids integer[],
  device_uuids text[],
  reported_at timestamptz[],
  device_columns jsonb[],
  apps json[],
  agent_profiles jsonb[]
) RETURNS TABLE ("own" boolean, "fleetId" integer, "fleetUuid" text)
  LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  layers integer;
  layer integer;
  picked integer[];
  out_n integer[] := ARRAY[]::integer[];
  out_own boolean[] := ARRAY[]::boolean[];
  out_fleet integer[] := ARRAY[]::integer[];
  out_uuid text[] := ARRAY[]::text[];
  done RECORD;
BEGIN
  -- Layer k holds each device's k-th report of the batch.
  SELECT max(o.k) INTO layers
    FROM (SELECT row_number() OVER (PARTITION BY u.id ORDER BY u.p) AS k
            FROM unnest(device_ids) WITH ORDINALITY AS u(id, p)) o;
  IF layers IS NULL THEN RETURN; END IF;
  IF layers = 1 THEN
    RETURN QUERY
      SELECT l."own", l."fleetId", l."fleetUuid"
        FROM flotilla_apply_state_report_layer(device_ids, device_uuids, reported_at,
               device_columns, apps, agent_profiles,
               ARRAY(SELECT generate_series(1, array_length(device_ids, 1)))) l
       ORDER BY l."position";
    RETURN;
  END IF;
  FOR layer IN 1 .. layers LOOP
    SELECT array_agg(o.p ORDER BY o.p) INTO picked
      FROM (SELECT u.p, row_number() OVER (PARTITION BY u.id ORDER BY u.p) AS k
              FROM unnest(device_ids) WITH ORDINALITY AS u(id, p)) o
     WHERE o.k = layer;
    FOR done IN
      SELECT * FROM flotilla_apply_state_report_layer(device_ids, device_uuids, reported_at,
                      device_columns, apps, agent_profiles, picked)
    LOOP
      out_n := out_n || done."position";
      out_own := out_own || done."own";
      out_fleet := out_fleet || done."fleetId";
      out_uuid := out_uuid || done."fleetUuid";
    END LOOP;
  END LOOP;
  RETURN QUERY
    SELECT o.own_, o.fleet_, o.uuid_
      FROM unnest(out_n, out_own, out_fleet, out_uuid) AS o(n_, own_, fleet_, uuid_)
     ORDER BY o.n_;
END $$;

-- One report alone (features/device-state/apply-state-report.ts): a batch of one.
CREATE OR REPLACE FUNCTION flotilla_apply_state_report(
  device_id integer,
  device_uuid text,
  reported_at timestamptz,
  device_columns jsonb,
  apps json
) RETURNS boolean
  LANGUAGE plpgsql AS $$
BEGIN
  RETURN coalesce((SELECT r."own"
                     FROM flotilla_apply_state_reports(ARRAY[device_id], ARRAY[device_uuid],
                            ARRAY[reported_at], ARRAY[device_columns], ARRAY[apps],
                            ARRAY[NULL::jsonb]) r), false);
END $$;

-- 0009's per-device helpers, replaced by the set-based ones above.
DROP FUNCTION flotilla_apply_reported_installs(integer, integer, integer, json, timestamptz);
DROP FUNCTION flotilla_apps_digest(integer, json, integer, integer, text);

-- ---------------------------------------------------------------------------------------------
-- The triggers every device row update pays for (a batch of changing reports updates hundreds)
-- ---------------------------------------------------------------------------------------------

-- The modification time (0057's rule, same bookkeeping columns): the row is compared with the
-- old one as a record, bookkeeping columns set to their old values, instead of turning both
-- versions into JSON. (A record comparison needs an equality operator for every column: a
-- device column of type json would need this function changed.)
CREATE OR REPLACE FUNCTION flotilla_touch_device_modified_at() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  compared "device" := NEW;
BEGIN
  compared."modified_at" := OLD."modified_at";
  compared."last_contact_at" := OLD."last_contact_at";
  compared."poll_interval_ms" := OLD."poll_interval_ms";
  compared."online_since" := OLD."online_since";
  compared."connected_since" := OLD."connected_since";
  compared."metrics_reported_at" := OLD."metrics_reported_at";
  compared."applied_apps_digest" := OLD."applied_apps_digest";
  compared."online_until" := OLD."online_until";
  compared."timeout_until" := OLD."timeout_until";
  compared."overall_status_base" := OLD."overall_status_base";
  compared."cloudlink_lost_at" := OLD."cloudlink_lost_at";
  IF compared IS DISTINCT FROM OLD THEN
    NEW."modified_at" := now();
  END IF;
  RETURN NEW;
END $$;

-- The device events (0062's rules and payloads, unchanged): the status and update status
-- events of one row are written by one INSERT that also finds the organization, instead of a
-- function call, an organization lookup and an INSERT (each waking the outbox's statement
-- trigger) per event; the payload is built only for events that happen.
CREATE OR REPLACE FUNCTION flotilla_device_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  fleet integer := NEW."belongs_to__application";
  was_online boolean := TG_OP = 'UPDATE' AND coalesce(OLD."timeout_until" >= now(), false);
  is_online boolean := coalesce(NEW."timeout_until" >= now(), false);
  status_changed boolean := TG_OP = 'UPDATE'
    AND OLD."overall_status_base" IS DISTINCT FROM NEW."overall_status_base";
  update_changed boolean := TG_OP = 'UPDATE'
    AND OLD."update_status" IS DISTINCT FROM NEW."update_status";
  org integer;
  base jsonb;
  stale timestamptz;
BEGIN
  IF is_online AND NOT was_online THEN
    org := flotilla_device_fleet_org(fleet);
    base := jsonb_build_object('device', NEW."id", 'uuid', NEW."uuid",
      'deviceName', NEW."device_name", 'fleet', fleet);
    -- Announced online and not yet seen offline by the sweep: tell the offline first.
    DELETE FROM "device_presence" WHERE "device" = NEW."id" RETURNING "check_at" INTO stale;
    IF FOUND THEN
      PERFORM flotilla_emit_event('device.offline', org, fleet, NEW."id", base,
        least(coalesce(OLD."timeout_until", stale), now()));
    END IF;
    INSERT INTO "device_presence" ("device", "check_at") VALUES (NEW."id", NEW."timeout_until");
    PERFORM flotilla_emit_event('device.online', org, fleet, NEW."id", base);
  ELSIF was_online AND (NEW."timeout_until" IS NULL OR NEW."timeout_until" < OLD."timeout_until") THEN
    -- The deadline moved earlier (the cloudlink dropped): the sweep must look sooner.
    UPDATE "device_presence" SET "check_at" = coalesce(NEW."timeout_until", now())
     WHERE "device" = NEW."id";
  END IF;
  IF status_changed OR update_changed THEN
    -- Nothing to tell when the fleet is gone (no application row: a cascade from it).
    INSERT INTO "event_outbox" ("type", "organization", "fleet", "device", "occurred_at", "data")
    SELECT e.kind, a."organization", fleet, NEW."id", now(),
           jsonb_build_object('device', NEW."id", 'uuid', NEW."uuid",
             'deviceName', NEW."device_name", 'fleet', fleet) || e.change
      FROM "application" a
     CROSS JOIN (VALUES
       (1, 'device.overall_status_changed', status_changed,
        jsonb_build_object('previous', OLD."overall_status_base", 'current', NEW."overall_status_base")),
       (2, 'device.update_status_changed', update_changed,
        jsonb_build_object('previous', OLD."update_status", 'current', NEW."update_status"))
     ) AS e(k, kind, happened, change)
     WHERE a."id" = fleet AND e.happened
     ORDER BY e.k;
  END IF;
  RETURN NULL;
END $$;
