-- State reports from many devices in one statement and one commit
-- (features/device-state/state-report-writer.ts). Each report is applied by
-- flotilla_apply_state_report (0009), in the order given, so two reports of one device in one
-- batch apply in arrival order and the later one wins. The caller sorts a batch by device (its
-- reports keeping their order) so that concurrent batches take the devices' locks in one order.
-- One row per report: whether the device with that id has that uuid (nothing is written for it
-- otherwise), and the fleet it belongs to (the report cache keys its entries by it).
--
-- agent_profiles: the agent's profile when the report carries one (NULL otherwise), written
-- only when it differs from the stored one.
CREATE FUNCTION flotilla_apply_state_reports(
  device_ids integer[],
  device_uuids text[],
  reported_at timestamptz[],
  device_columns jsonb[],
  apps json[],
  agent_profiles jsonb[]
) RETURNS TABLE ("own" boolean, "fleetId" integer, "fleetUuid" text)
  LANGUAGE plpgsql AS $$
DECLARE
  i integer;
BEGIN
  FOR i IN 1 .. coalesce(array_length(device_ids, 1), 0) LOOP
    "own" := flotilla_apply_state_report(device_ids[i], device_uuids[i], reported_at[i],
      device_columns[i], apps[i]);
    "fleetId" := NULL;
    "fleetUuid" := NULL;
    IF "own" THEN
      IF agent_profiles[i] IS NOT NULL THEN
        UPDATE "device" SET "agent_profile" = agent_profiles[i]
         WHERE "id" = device_ids[i] AND "agent_profile" IS DISTINCT FROM agent_profiles[i];
      END IF;
      SELECT a."id", a."uuid" INTO "fleetId", "fleetUuid"
        FROM "device" d JOIN "application" a ON a."id" = d."belongs_to__application"
       WHERE d."id" = device_ids[i];
    END IF;
    RETURN NEXT;
  END LOOP;
END $$;

-- The device row's notification on channel state_report (0031) without turning both row
-- versions into JSON for every changed device: the device's id is at hand.
CREATE FUNCTION flotilla_device_state_report_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM flotilla_notify_state_report('d', NEW."id");
  IF OLD."id" IS DISTINCT FROM NEW."id" THEN
    PERFORM flotilla_notify_state_report('d', OLD."id");
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER "device_state_report_changed" ON "device";
CREATE TRIGGER "device_state_report_changed" AFTER UPDATE ON "device"
  FOR EACH ROW WHEN (
    (OLD."uuid", OLD."belongs_to__application", OLD."is_pinned_on__release", OLD."status",
     OLD."os_version", OLD."os_variant", OLD."supervisor_version", OLD."provisioning_progress",
     OLD."provisioning_state", OLD."ip_address", OLD."mac_address", OLD."api_port",
     OLD."api_secret", OLD."cpu_id", OLD."is_undervolted", OLD."download_progress",
     OLD."update_status", OLD."is_running__release", OLD."applied_apps_digest")
    IS DISTINCT FROM
    (NEW."uuid", NEW."belongs_to__application", NEW."is_pinned_on__release", NEW."status",
     NEW."os_version", NEW."os_variant", NEW."supervisor_version", NEW."provisioning_progress",
     NEW."provisioning_state", NEW."ip_address", NEW."mac_address", NEW."api_port",
     NEW."api_secret", NEW."cpu_id", NEW."is_undervolted", NEW."download_progress",
     NEW."update_status", NEW."is_running__release", NEW."applied_apps_digest"))
  EXECUTE FUNCTION flotilla_device_state_report_changed();

-- The same for a device's image and service installs (a report rewrites several of them).
CREATE FUNCTION flotilla_install_state_report_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM flotilla_notify_state_report('d', OLD."device");
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."device" IS DISTINCT FROM OLD."device") THEN
    PERFORM flotilla_notify_state_report('d', NEW."device");
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER "image_install_state_report_changed" ON "image_install";
CREATE TRIGGER "image_install_state_report_changed" AFTER INSERT OR UPDATE OR DELETE ON "image_install"
  FOR EACH ROW EXECUTE FUNCTION flotilla_install_state_report_changed();
DROP TRIGGER "service_install_state_report_changed" ON "service_install";
CREATE TRIGGER "service_install_state_report_changed" AFTER INSERT OR UPDATE OR DELETE ON "service_install"
  FOR EACH ROW EXECUTE FUNCTION flotilla_install_state_report_changed();
