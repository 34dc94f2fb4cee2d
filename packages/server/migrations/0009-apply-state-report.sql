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
  assignments text;
  stored text;
  reported text;
BEGIN
  -- Two reports of one device never interleave. An advisory lock, unlike FOR UPDATE, writes
  -- nothing: an unchanged report stays a read-only transaction.
  PERFORM pg_advisory_xact_lock(7461003, device_id);
  SELECT d."uuid", d."belongs_to__application", a."uuid",
         coalesce(d."is_pinned_on__release", a."should_be_running__release")
    INTO own_uuid, fleet, fleet_uuid, target
    FROM "device" d JOIN "application" a ON a."id" = d."belongs_to__application"
   WHERE d."id" = device_id;
  IF NOT FOUND OR own_uuid IS DISTINCT FROM device_uuid THEN
    RETURN false;
  END IF;
  SELECT r."commit" INTO target_commit FROM "release" r WHERE r."id" = target;
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
  ELSIF json_typeof(fleet_app -> 'release_uuid') = 'string' THEN
    SELECT r."id" INTO running FROM "release" r
     WHERE r."belongs_to__application" = fleet AND r."commit" = fleet_app ->> 'release_uuid';
    IF FOUND THEN
      changes := changes || jsonb_build_object('is_running__release', running);
    END IF;
  END IF;

  IF changes <> '{}'::jsonb THEN
    SELECT string_agg(format('%1$I = r.%1$I', name), ', '),
           string_agg(format('d.%I', name), ', '),
           string_agg(format('r.%I', name), ', ')
      INTO assignments, stored, reported
      FROM jsonb_object_keys(changes) AS name;
    IF changes ? 'update_status' THEN
      assignments := assignments || ', "last_update_status_event" = CASE WHEN d."update_status"'
        || ' IS DISTINCT FROM r."update_status" THEN $3 ELSE d."last_update_status_event" END';
    END IF;
    EXECUTE format(
      'UPDATE "device" d SET %s FROM jsonb_populate_record(NULL::"device", $1) r'
      || ' WHERE d."id" = $2 AND ROW(%s) IS DISTINCT FROM ROW(%s)',
      assignments, stored, reported)
      USING changes, device_id, reported_at;
  END IF;

  IF apps IS NULL THEN
    RETURN true;
  END IF;
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
  ), upserted AS (
    INSERT INTO "image_install" AS ii
           ("device", "installs__image", "status", "download_progress", "is_provided_by__release", "install_date")
    SELECT device_id, c.image, c.status, c.progress, c.release, reported_at FROM chosen c
    ON CONFLICT ("device", "installs__image") DO UPDATE SET
      "status" = EXCLUDED."status",
      "download_progress" = EXCLUDED."download_progress",
      "is_provided_by__release" = EXCLUDED."is_provided_by__release"
    WHERE (ii."status", ii."download_progress", ii."is_provided_by__release")
      IS DISTINCT FROM (EXCLUDED."status", EXCLUDED."download_progress", EXCLUDED."is_provided_by__release")
  ), removed AS (
    DELETE FROM "image_install" ii
     WHERE ii."device" = device_id AND ii."installs__image" NOT IN (SELECT c.image FROM chosen c)
  )
  INSERT INTO "service_install" ("device", "installs__service")
  SELECT DISTINCT device_id, c.service FROM chosen c WHERE c.app_id = fleet
  ON CONFLICT ("device", "installs__service") DO NOTHING;
  RETURN true;
END $$;
