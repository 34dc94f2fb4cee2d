-- Steady-state reports answered from memory (features/device-state/state-report-cache.ts). Each
-- server process remembers, per device, the digest of the last report it applied (its device
-- columns and apps section, metrics aside) and skips the database when the same report comes
-- again. These triggers tell every process (NOTIFY on channel state_report, delivered at commit)
-- that what such a report resolves to may have changed: a device ('d:<id>': a column a report
-- sets or reads, its fleet or pinned release, its installs) or a fleet ('f:<id>': its uuid,
-- target release, publicity, state_report_epoch (0009: its releases, images and services), a
-- release created or deleted in it). A report that writes nothing notifies nothing; metrics and
-- contacts (features/heartbeat) write none of these columns.

CREATE FUNCTION flotilla_notify_state_report(kind text, id integer) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  IF id IS NOT NULL THEN
    PERFORM pg_notify('state_report', kind || ':' || id);
  END IF;
END $$;

-- Rows naming their device or fleet in a column: TG_ARGV = (kind, column).
CREATE FUNCTION flotilla_state_report_changed_by_column() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM flotilla_notify_state_report(TG_ARGV[0], (to_jsonb(OLD) ->> TG_ARGV[1])::integer);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM flotilla_notify_state_report(TG_ARGV[0], (to_jsonb(NEW) ->> TG_ARGV[1])::integer);
  END IF;
  RETURN NULL;
END $$;

-- The columns flotilla_apply_state_report (0009) reads or writes: a report sent again after one
-- of them changed may write it back, or resolve its apps differently.
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
  EXECUTE FUNCTION flotilla_state_report_changed_by_column('d', 'id');
CREATE TRIGGER "device_state_report_deleted" AFTER DELETE ON "device"
  FOR EACH ROW EXECUTE FUNCTION flotilla_state_report_changed_by_column('d', 'id');

-- A device's installs, whoever writes them (the digest of 0009 covers them).
CREATE TRIGGER "image_install_state_report_changed" AFTER INSERT OR UPDATE OR DELETE ON "image_install"
  FOR EACH ROW EXECUTE FUNCTION flotilla_state_report_changed_by_column('d', 'device');
CREATE TRIGGER "service_install_state_report_changed" AFTER INSERT OR UPDATE OR DELETE ON "service_install"
  FOR EACH ROW EXECUTE FUNCTION flotilla_state_report_changed_by_column('d', 'device');

-- The fleet: the uuid a report's apps are keyed by, the target release (update_status is taken
-- from its entry), publicity and the epoch of what installs resolve to.
CREATE TRIGGER "application_state_report_changed" AFTER UPDATE ON "application"
  FOR EACH ROW WHEN (
    (OLD."uuid", OLD."should_be_running__release", OLD."is_public", OLD."state_report_epoch")
    IS DISTINCT FROM
    (NEW."uuid", NEW."should_be_running__release", NEW."is_public", NEW."state_report_epoch"))
  EXECUTE FUNCTION flotilla_state_report_changed_by_column('f', 'id');

-- A release created with the commit a device says it runs becomes its running release; the
-- epoch covers commits changed and releases moved, this covers releases created or deleted.
CREATE TRIGGER "release_state_report_changed" AFTER INSERT OR DELETE ON "release"
  FOR EACH ROW EXECUTE FUNCTION flotilla_state_report_changed_by_column('f', 'belongs_to__application');
