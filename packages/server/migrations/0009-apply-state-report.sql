-- PATCH /device/v3/state in one round trip (features/device-state/apply-state-report.ts): one
-- call applies a device's state report and commits once, writing only what differs from the
-- stored rows; an unchanged report writes nothing at all. Metrics and the heartbeat are not part
-- of it (features/heartbeat/device-contacts.ts batches them).
--
--   device_id, device_uuid  the reporting device; nothing is written (and false returned) unless
--                           the row with that id has that uuid (a device reports for itself only)
--   reported_at             when the report arrived (the update status event time)
--   device_columns          the device columns the report sets, name -> value (validated and
--                           limited to the reportable ones by the caller)
--   apps                    the report's apps section as the device sent it (json keeps its key
--                           order, which decides between entries naming one image), or NULL
--
-- The rules, as before this function existed:
--  * update_status, when the report sets none itself, is taken from the device's fleet app: the
--    entry of the target release first, then the running release's, then the first reported;
--    last_update_status_event moves only when update_status changes;
--  * is_running__release follows the fleet app's release_uuid (null clears it; an unknown
--    commit leaves it alone);
--  * when apps are reported they are complete: one image_install per reported service whose
--    release (of the device's fleet, or of a public fleet) has an image for it; an image named by
--    two releases is attributed to the target release, else to the first reported; installs not
--    reported are deleted; service installs are ensured for the device's fleet's services.
--
-- A device in steady state reports the same apps section again and again: the installs are then
-- computed only when something they depend on changed (device.applied_apps_digest), which
-- application.state_report_epoch tracks for releases, images and services. Whatever writes those
-- tables is covered by the triggers below; anything else writing image_install or service_install
-- changes the digest's view of the installs themselves.

-- Bookkeeping for skipping unchanged installs (neither column is a v7 field).
ALTER TABLE "device" ADD COLUMN "applied_apps_digest" text;
-- Moves whenever what a report's apps section resolves to may change in this fleet: a release's
-- commit or fleet, the images of its releases, the service an image is built from, a service's
-- name, the fleet's publicity. Deletions need none: what they remove (a release, an image, a
-- service) takes the device's installs made from it along, and the digest covers those; nor does
-- a fleet's uuid: the digest names the fleets the report's uuids find.
ALTER TABLE "application" ADD COLUMN "state_report_epoch" bigint NOT NULL DEFAULT 0;

CREATE FUNCTION flotilla_release_resolution_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  releases integer[] := ARRAY[]::integer[];
  fleets integer[] := ARRAY[]::integer[];
BEGIN
  CASE TG_TABLE_NAME
    WHEN 'release' THEN
      fleets := ARRAY[OLD."belongs_to__application", NEW."belongs_to__application"];
    WHEN 'release_image' THEN
      IF TG_OP <> 'INSERT' THEN releases := releases || OLD."is_part_of__release"; END IF;
      IF TG_OP <> 'DELETE' THEN releases := releases || NEW."is_part_of__release"; END IF;
    WHEN 'image' THEN
      SELECT coalesce(array_agg(ri."is_part_of__release"), releases) INTO releases
        FROM "release_image" ri WHERE ri."image" = NEW."id";
    WHEN 'service' THEN
      SELECT coalesce(array_agg(ri."is_part_of__release"), releases) INTO releases
        FROM "image" i JOIN "release_image" ri ON ri."image" = i."id"
       WHERE i."is_a_build_of__service" = NEW."id";
  END CASE;
  UPDATE "application" a SET "state_report_epoch" = a."state_report_epoch" + 1
   WHERE a."id" = ANY(fleets)
      OR a."id" IN (SELECT r."belongs_to__application" FROM "release" r WHERE r."id" = ANY(releases));
  RETURN NULL;
END $$;

CREATE TRIGGER "release_state_report_epoch" AFTER UPDATE OF "commit", "belongs_to__application" ON "release"
  FOR EACH ROW WHEN (OLD."commit" IS DISTINCT FROM NEW."commit"
    OR OLD."belongs_to__application" IS DISTINCT FROM NEW."belongs_to__application")
  EXECUTE FUNCTION flotilla_release_resolution_changed();
CREATE TRIGGER "release_image_state_report_epoch" AFTER INSERT OR UPDATE OR DELETE ON "release_image"
  FOR EACH ROW EXECUTE FUNCTION flotilla_release_resolution_changed();
CREATE TRIGGER "image_state_report_epoch" AFTER UPDATE OF "is_a_build_of__service" ON "image"
  FOR EACH ROW WHEN (OLD."is_a_build_of__service" IS DISTINCT FROM NEW."is_a_build_of__service")
  EXECUTE FUNCTION flotilla_release_resolution_changed();
CREATE TRIGGER "service_state_report_epoch" AFTER UPDATE OF "service_name" ON "service"
  FOR EACH ROW WHEN (OLD."service_name" IS DISTINCT FROM NEW."service_name")
  EXECUTE FUNCTION flotilla_release_resolution_changed();

CREATE FUNCTION flotilla_application_resolution_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  NEW."state_report_epoch" := OLD."state_report_epoch" + 1;
  RETURN NEW;
END $$;
CREATE TRIGGER "application_state_report_epoch" BEFORE UPDATE OF "is_public" ON "application"
  FOR EACH ROW WHEN (OLD."is_public" IS DISTINCT FROM NEW."is_public")
  EXECUTE FUNCTION flotilla_application_resolution_changed();

-- The digest is bookkeeping too: writing it is no modification of the device (0004).
CREATE OR REPLACE FUNCTION flotilla_touch_device_modified_at() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  bookkeeping CONSTANT text[] := ARRAY['modified_at', 'last_contact_at', 'poll_interval_ms',
    'online_since', 'connected_since', 'metrics_reported_at', 'applied_apps_digest'];
BEGIN
  IF (to_jsonb(NEW) - bookkeeping) IS DISTINCT FROM (to_jsonb(OLD) - bookkeeping) THEN
    NEW."modified_at" := now();
  END IF;
  RETURN NEW;
END $$;

-- The image and service installs a report's apps section describes (the rules above), written
-- where they differ from the stored ones.
CREATE FUNCTION flotilla_apply_reported_installs(
  device_id integer,
  fleet integer,
  target integer,
  apps json,
  reported_at timestamptz
) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  WITH reported_service AS (
    SELECT app.key AS app_uuid, rel.key AS commit, svc.key AS service_name,
           coalesce(svc.value ->> 'status', 'Unknown') AS status,
           (svc.value ->> 'download_progress')::integer AS progress,
           app.n AS app_n, rel.n AS rel_n, svc.n AS svc_n
      FROM json_each(apps) WITH ORDINALITY AS app(key, value, n)
     CROSS JOIN LATERAL json_each(coalesce(app.value -> 'releases', '{}'::json))
           WITH ORDINALITY AS rel(key, value, n)
     CROSS JOIN LATERAL json_each(coalesce(rel.value -> 'services', '{}'::json))
           WITH ORDINALITY AS svc(key, value, n)
  ), resolved AS (
    SELECT DISTINCT a."uuid" AS app_uuid, r."commit", r."id", a."id" AS app_id
      FROM reported_service rs
      JOIN "application" a ON a."uuid" = rs.app_uuid
      JOIN "release" r ON r."belongs_to__application" = a."id" AND r."commit" = rs.commit
     WHERE a."id" = fleet OR a."is_public"
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
    SELECT DISTINCT ON (rsi.image) rsi.image, rsi.service, res."id" AS release, res.app_id,
           rs.status, rs.progress
      FROM reported_service rs
      JOIN resolved res ON res.app_uuid = rs.app_uuid AND res."commit" = rs.commit
      JOIN release_service_image rsi ON rsi.release = res."id" AND rsi.service_name = rs.service_name
     ORDER BY rsi.image, (res."id" = target) IS TRUE DESC, rs.app_n, rs.rel_n, rs.svc_n
  ), inserted AS (
    -- New installs only, and existing ones rewritten only when they differ: an ON CONFLICT ...
    -- DO UPDATE would lock (write) every existing row even when it changes nothing.
    INSERT INTO "image_install"
           ("device", "installs__image", "status", "download_progress", "is_provided_by__release", "install_date")
    SELECT device_id, c.image, c.status, c.progress, c.release, reported_at FROM chosen c
     WHERE NOT EXISTS (SELECT 1 FROM "image_install" ii
                        WHERE ii."device" = device_id AND ii."installs__image" = c.image)
    ON CONFLICT ("device", "installs__image") DO NOTHING
  ), updated AS (
    UPDATE "image_install" ii SET
      "status" = c.status, "download_progress" = c.progress, "is_provided_by__release" = c.release
      FROM chosen c
     WHERE ii."device" = device_id AND ii."installs__image" = c.image
       AND (ii."status", ii."download_progress", ii."is_provided_by__release")
           IS DISTINCT FROM (c.status, c.progress, c.release)
  ), removed AS (
    DELETE FROM "image_install" ii
     WHERE ii."device" = device_id AND ii."installs__image" NOT IN (SELECT c.image FROM chosen c)
  )
  INSERT INTO "service_install" ("device", "installs__service")
  SELECT DISTINCT device_id, c.service FROM chosen c
   WHERE c.app_id = fleet
     AND NOT EXISTS (SELECT 1 FROM "service_install" si
                      WHERE si."device" = device_id AND si."installs__service" = c.service)
  ON CONFLICT ("device", "installs__service") DO NOTHING;
END $$;

-- The digest of what a device's installs are computed from, and of the installs themselves.
-- (PL/pgSQL rather than SQL: its plans are kept for the session, a SQL function's are not.)
CREATE FUNCTION flotilla_apps_digest(
  device_id integer,
  apps json,
  fleet integer,
  target integer,
  epochs text
) RETURNS text
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN md5(concat_ws('|', apps::text, fleet, coalesce(target::text, '-'), coalesce(epochs, '-'),
    (SELECT string_agg(concat_ws(':', ii."installs__image", ii."status",
                                 coalesce(ii."download_progress"::text, '-'), ii."is_provided_by__release"),
                       ',' ORDER BY ii."installs__image")
       FROM "image_install" ii WHERE ii."device" = device_id),
    (SELECT string_agg(si."installs__service"::text, ',' ORDER BY si."installs__service")
       FROM "service_install" si WHERE si."device" = device_id)));
END $$;

CREATE FUNCTION flotilla_apply_state_report(
  device_id integer,
  device_uuid text,
  reported_at timestamptz,
  device_columns jsonb,
  apps json
) RETURNS boolean
  LANGUAGE plpgsql AS $$
DECLARE
  own_uuid text;
  fleet integer;
  fleet_uuid text;
  target integer;
  target_commit text;
  fleet_app json;
  status json;
  running integer;
  changes jsonb := device_columns;
  applied_digest text;
  epochs text;
BEGIN
  -- Two reports of one device never interleave. An advisory lock, unlike FOR UPDATE, writes
  -- nothing: an unchanged report stays a read-only transaction.
  PERFORM pg_advisory_xact_lock(7461003, device_id);
  -- One read: the device, its fleet, its target release (pinned, else the fleet's), the release
  -- its report says it runs, and the epochs of the fleets the report names.
  SELECT d."uuid", d."belongs_to__application", a."uuid", t."id", t."commit", d."applied_apps_digest",
         (SELECT r."id" FROM "release" r
           WHERE r."belongs_to__application" = a."id" AND r."commit" = apps -> a."uuid" ->> 'release_uuid'),
         (SELECT string_agg(x."id" || ':' || x."state_report_epoch", ',' ORDER BY x."id")
            FROM "application" x
           WHERE apps IS NOT NULL AND (x."id" = a."id" OR x."uuid" IN (SELECT json_object_keys(apps))))
    INTO own_uuid, fleet, fleet_uuid, target, target_commit, applied_digest, running, epochs
    FROM "device" d
    JOIN "application" a ON a."id" = d."belongs_to__application"
    LEFT JOIN "release" t ON t."id" = coalesce(d."is_pinned_on__release", a."should_be_running__release")
   WHERE d."id" = device_id;
  IF NOT FOUND OR own_uuid IS DISTINCT FROM device_uuid THEN
    RETURN false;
  END IF;
  fleet_app := apps -> fleet_uuid;

  IF fleet_app IS NOT NULL AND NOT (changes ? 'update_status') THEN
    SELECT rel.value -> 'update_status' INTO status
      FROM json_each(coalesce(fleet_app -> 'releases', '{}'::json)) WITH ORDINALITY AS rel(commit, value, n)
     WHERE json_typeof(rel.value -> 'update_status') IS NOT NULL
     ORDER BY (rel.commit = target_commit) IS TRUE DESC,
              (rel.commit = fleet_app ->> 'release_uuid') IS TRUE DESC,
              rel.n
     LIMIT 1;
    IF FOUND THEN
      changes := changes || jsonb_build_object('update_status', status::jsonb);
    END IF;
  END IF;

  IF json_typeof(fleet_app -> 'release_uuid') = 'null' THEN
    changes := changes || '{"is_running__release": null}'::jsonb;
  ELSIF json_typeof(fleet_app -> 'release_uuid') = 'string' AND running IS NOT NULL THEN
    changes := changes || jsonb_build_object('is_running__release', running);
  END IF;

  -- The installs, unless they would come out as they are: the digest names everything they are
  -- computed from (the apps section, fleet, target release, the fleets' state_report_epoch)
  -- and the installs themselves, as the last report that computed them left them.
  IF apps IS NOT NULL THEN
    IF flotilla_apps_digest(device_id, apps, fleet, target, epochs) IS DISTINCT FROM applied_digest THEN
      PERFORM flotilla_apply_reported_installs(device_id, fleet, target, apps, reported_at);
      -- The epochs as read before: a release change committed meanwhile is seen next time.
      changes := changes || jsonb_build_object('applied_apps_digest',
        flotilla_apps_digest(device_id, apps, fleet, target, epochs));
    END IF;
  END IF;

  -- The columns a report may set (state-report-schema.ts, less the metrics), the running
  -- release and the digest; the row is written only when one of them changes.
  IF changes <> '{}'::jsonb THEN
    UPDATE "device" d SET
      "status" = CASE WHEN changes ? 'status' THEN r."status" ELSE d."status" END,
      "os_version" = CASE WHEN changes ? 'os_version' THEN r."os_version" ELSE d."os_version" END,
      "os_variant" = CASE WHEN changes ? 'os_variant' THEN r."os_variant" ELSE d."os_variant" END,
      "supervisor_version" = CASE WHEN changes ? 'supervisor_version' THEN r."supervisor_version" ELSE d."supervisor_version" END,
      "provisioning_progress" = CASE WHEN changes ? 'provisioning_progress' THEN r."provisioning_progress" ELSE d."provisioning_progress" END,
      "provisioning_state" = CASE WHEN changes ? 'provisioning_state' THEN r."provisioning_state" ELSE d."provisioning_state" END,
      "ip_address" = CASE WHEN changes ? 'ip_address' THEN r."ip_address" ELSE d."ip_address" END,
      "mac_address" = CASE WHEN changes ? 'mac_address' THEN r."mac_address" ELSE d."mac_address" END,
      "api_port" = CASE WHEN changes ? 'api_port' THEN r."api_port" ELSE d."api_port" END,
      "api_secret" = CASE WHEN changes ? 'api_secret' THEN r."api_secret" ELSE d."api_secret" END,
      "cpu_id" = CASE WHEN changes ? 'cpu_id' THEN r."cpu_id" ELSE d."cpu_id" END,
      "is_undervolted" = CASE WHEN changes ? 'is_undervolted' THEN r."is_undervolted" ELSE d."is_undervolted" END,
      "download_progress" = CASE WHEN changes ? 'download_progress' THEN r."download_progress" ELSE d."download_progress" END,
      "update_status" = CASE WHEN changes ? 'update_status' THEN r."update_status" ELSE d."update_status" END,
      "is_running__release" = CASE WHEN changes ? 'is_running__release' THEN r."is_running__release" ELSE d."is_running__release" END,
      "applied_apps_digest" = CASE WHEN changes ? 'applied_apps_digest' THEN r."applied_apps_digest" ELSE d."applied_apps_digest" END,
      "last_update_status_event" = CASE
        WHEN changes ? 'update_status' AND d."update_status" IS DISTINCT FROM r."update_status"
        THEN reported_at ELSE d."last_update_status_event" END
      FROM jsonb_populate_record(NULL::"device", changes) r
     WHERE d."id" = device_id
       AND ((changes ? 'status' AND d."status" IS DISTINCT FROM r."status")
         OR (changes ? 'os_version' AND d."os_version" IS DISTINCT FROM r."os_version")
         OR (changes ? 'os_variant' AND d."os_variant" IS DISTINCT FROM r."os_variant")
         OR (changes ? 'supervisor_version' AND d."supervisor_version" IS DISTINCT FROM r."supervisor_version")
         OR (changes ? 'provisioning_progress' AND d."provisioning_progress" IS DISTINCT FROM r."provisioning_progress")
         OR (changes ? 'provisioning_state' AND d."provisioning_state" IS DISTINCT FROM r."provisioning_state")
         OR (changes ? 'ip_address' AND d."ip_address" IS DISTINCT FROM r."ip_address")
         OR (changes ? 'mac_address' AND d."mac_address" IS DISTINCT FROM r."mac_address")
         OR (changes ? 'api_port' AND d."api_port" IS DISTINCT FROM r."api_port")
         OR (changes ? 'api_secret' AND d."api_secret" IS DISTINCT FROM r."api_secret")
         OR (changes ? 'cpu_id' AND d."cpu_id" IS DISTINCT FROM r."cpu_id")
         OR (changes ? 'is_undervolted' AND d."is_undervolted" IS DISTINCT FROM r."is_undervolted")
         OR (changes ? 'download_progress' AND d."download_progress" IS DISTINCT FROM r."download_progress")
         OR (changes ? 'update_status' AND d."update_status" IS DISTINCT FROM r."update_status")
         OR (changes ? 'is_running__release' AND d."is_running__release" IS DISTINCT FROM r."is_running__release")
         OR (changes ? 'applied_apps_digest' AND d."applied_apps_digest" IS DISTINCT FROM r."applied_apps_digest"));
  END IF;

  RETURN true;
END $$;
