-- Target-state change notifications (features/device-state/target-state-cache.ts). Every server
-- process keeps, in memory, the ETag it last served each device, and answers a poll that presents
-- it with 304 without reading the database. These triggers tell every process (NOTIFY on channel
-- target_state, delivered at commit) what a committed change touches: a device ('d:<id>'), a
-- fleet ('f:<id>', every device of it) or a release ('r:<id>', every device targeting it); '*'
-- means anything. Each process keeps a version per notified key and drops any ETag older than a
-- key it was built from. A fleet-level change is one notification however many devices the fleet
-- has, and nothing is written. Only what target-state-query.ts reads counts: heartbeats and state
-- reports write other device columns and notify nothing.

CREATE FUNCTION flotilla_notify_target(kind text, id integer) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  IF id IS NOT NULL THEN
    PERFORM pg_notify('target_state', kind || ':' || id);
  END IF;
END $$;

-- Rows naming their device, fleet or release in a column: TG_ARGV = (kind, column).
CREATE FUNCTION flotilla_target_changed_by_column() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM flotilla_notify_target(TG_ARGV[0], (to_jsonb(OLD) ->> TG_ARGV[1])::integer);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM flotilla_notify_target(TG_ARGV[0], (to_jsonb(NEW) ->> TG_ARGV[1])::integer);
  END IF;
  RETURN NULL;
END $$;

-- Rows one step further away: a service's variables and labels (its fleet), an image's variables
-- and labels (their release), a device's per-service variables (their device). A parent deleted
-- with its children is notified by the parent's own trigger, so a child whose parent is already
-- gone notifies nothing.
CREATE FUNCTION flotilla_target_changed_through_parent() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  parent_ids integer[] := ARRAY[]::integer[];
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    parent_ids := parent_ids || (to_jsonb(OLD) ->> TG_ARGV[0])::integer;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    parent_ids := parent_ids || (to_jsonb(NEW) ->> TG_ARGV[0])::integer;
  END IF;
  CASE TG_ARGV[0]
    WHEN 'service' THEN
      PERFORM flotilla_notify_target('f', s."application") FROM "service" s WHERE s."id" = ANY(parent_ids);
    WHEN 'release_image' THEN
      PERFORM flotilla_notify_target('r', ri."is_part_of__release") FROM "release_image" ri WHERE ri."id" = ANY(parent_ids);
    WHEN 'service_install' THEN
      PERFORM flotilla_notify_target('d', si."device") FROM "service_install" si WHERE si."id" = ANY(parent_ids);
  END CASE;
  RETURN NULL;
END $$;

CREATE FUNCTION flotilla_target_changed_everything() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('target_state', '*');
  RETURN NULL;
END $$;

-- Devices: what the target names and how it is chosen (name, fleet, pinned release); the rest is
-- never served in it but changes seldom and is part of the device's identity.
CREATE TRIGGER "device_target_changed" AFTER UPDATE OF "uuid", "device_name",
    "belongs_to__application", "is_pinned_on__release", "is_active", "is_of__device_type" ON "device"
  FOR EACH ROW WHEN (
    OLD."uuid" IS DISTINCT FROM NEW."uuid"
    OR OLD."device_name" IS DISTINCT FROM NEW."device_name"
    OR OLD."belongs_to__application" IS DISTINCT FROM NEW."belongs_to__application"
    OR OLD."is_pinned_on__release" IS DISTINCT FROM NEW."is_pinned_on__release"
    OR OLD."is_active" IS DISTINCT FROM NEW."is_active"
    OR OLD."is_of__device_type" IS DISTINCT FROM NEW."is_of__device_type")
  EXECUTE FUNCTION flotilla_target_changed_by_column('d', 'id');
CREATE TRIGGER "device_target_deleted" AFTER DELETE ON "device"
  FOR EACH ROW EXECUTE FUNCTION flotilla_target_changed_by_column('d', 'id');

CREATE TRIGGER "application_target_changed" AFTER UPDATE OF "uuid", "app_name", "is_of__class",
    "is_host", "should_be_running__release" ON "application"
  FOR EACH ROW WHEN (
    OLD."uuid" IS DISTINCT FROM NEW."uuid"
    OR OLD."app_name" IS DISTINCT FROM NEW."app_name"
    OR OLD."is_of__class" IS DISTINCT FROM NEW."is_of__class"
    OR OLD."is_host" IS DISTINCT FROM NEW."is_host"
    OR OLD."should_be_running__release" IS DISTINCT FROM NEW."should_be_running__release")
  EXECUTE FUNCTION flotilla_target_changed_by_column('f', 'id');
CREATE TRIGGER "application_target_deleted" AFTER DELETE ON "application"
  FOR EACH ROW EXECUTE FUNCTION flotilla_target_changed_by_column('f', 'id');

CREATE TRIGGER "release_target_changed" AFTER UPDATE OF "commit", "composition",
    "belongs_to__application" ON "release"
  FOR EACH ROW WHEN (
    OLD."commit" IS DISTINCT FROM NEW."commit"
    OR OLD."composition" IS DISTINCT FROM NEW."composition"
    OR OLD."belongs_to__application" IS DISTINCT FROM NEW."belongs_to__application")
  EXECUTE FUNCTION flotilla_target_changed_by_column('r', 'id');
CREATE TRIGGER "release_target_deleted" AFTER DELETE ON "release"
  FOR EACH ROW EXECUTE FUNCTION flotilla_target_changed_by_column('r', 'id');

CREATE TRIGGER "release_image_target_changed" AFTER INSERT OR UPDATE OR DELETE ON "release_image"
  FOR EACH ROW EXECUTE FUNCTION flotilla_target_changed_by_column('r', 'is_part_of__release');

-- An image is served by every release holding it.
CREATE FUNCTION flotilla_image_target_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM flotilla_notify_target('r', ri."is_part_of__release")
     FROM "release_image" ri WHERE ri."image" = NEW."id";
  RETURN NULL;
END $$;
CREATE TRIGGER "image_target_changed" AFTER UPDATE OF "is_stored_at__image_location",
    "content_hash", "contract", "is_a_build_of__service" ON "image"
  FOR EACH ROW WHEN (
    OLD."is_stored_at__image_location" IS DISTINCT FROM NEW."is_stored_at__image_location"
    OR OLD."content_hash" IS DISTINCT FROM NEW."content_hash"
    OR OLD."contract" IS DISTINCT FROM NEW."contract"
    OR OLD."is_a_build_of__service" IS DISTINCT FROM NEW."is_a_build_of__service")
  EXECUTE FUNCTION flotilla_image_target_changed();

-- A service's name keys its entry in every release built from it; its fleet's devices read its
-- variables and labels.
CREATE FUNCTION flotilla_service_target_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM flotilla_notify_target('f', OLD."application");
  IF TG_OP = 'UPDATE' THEN
    PERFORM flotilla_notify_target('f', NEW."application");
    PERFORM flotilla_notify_target('r', ri."is_part_of__release")
       FROM "image" i JOIN "release_image" ri ON ri."image" = i."id"
      WHERE i."is_a_build_of__service" = NEW."id";
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "service_target_changed" AFTER UPDATE OF "service_name", "application" ON "service"
  FOR EACH ROW WHEN (
    OLD."service_name" IS DISTINCT FROM NEW."service_name"
    OR OLD."application" IS DISTINCT FROM NEW."application")
  EXECUTE FUNCTION flotilla_service_target_changed();
CREATE TRIGGER "service_target_deleted" AFTER DELETE ON "service"
  FOR EACH ROW EXECUTE FUNCTION flotilla_service_target_changed();

-- Configuration and environment variables, labels.
CREATE TRIGGER "application_config_variable_target_changed"
  AFTER INSERT OR UPDATE OR DELETE ON "application_config_variable"
  FOR EACH ROW EXECUTE FUNCTION flotilla_target_changed_by_column('f', 'application');
CREATE TRIGGER "application_environment_variable_target_changed"
  AFTER INSERT OR UPDATE OR DELETE ON "application_environment_variable"
  FOR EACH ROW EXECUTE FUNCTION flotilla_target_changed_by_column('f', 'application');
CREATE TRIGGER "device_config_variable_target_changed"
  AFTER INSERT OR UPDATE OR DELETE ON "device_config_variable"
  FOR EACH ROW EXECUTE FUNCTION flotilla_target_changed_by_column('d', 'device');
CREATE TRIGGER "device_environment_variable_target_changed"
  AFTER INSERT OR UPDATE OR DELETE ON "device_environment_variable"
  FOR EACH ROW EXECUTE FUNCTION flotilla_target_changed_by_column('d', 'device');
CREATE TRIGGER "service_environment_variable_target_changed"
  AFTER INSERT OR UPDATE OR DELETE ON "service_environment_variable"
  FOR EACH ROW EXECUTE FUNCTION flotilla_target_changed_through_parent('service');
CREATE TRIGGER "service_label_target_changed"
  AFTER INSERT OR UPDATE OR DELETE ON "service_label"
  FOR EACH ROW EXECUTE FUNCTION flotilla_target_changed_through_parent('service');
CREATE TRIGGER "image_environment_variable_target_changed"
  AFTER INSERT OR UPDATE OR DELETE ON "image_environment_variable"
  FOR EACH ROW EXECUTE FUNCTION flotilla_target_changed_through_parent('release_image');
CREATE TRIGGER "image_label_target_changed"
  AFTER INSERT OR UPDATE OR DELETE ON "image_label"
  FOR EACH ROW EXECUTE FUNCTION flotilla_target_changed_through_parent('release_image');
CREATE TRIGGER "device_service_environment_variable_target_changed"
  AFTER INSERT OR UPDATE OR DELETE ON "device_service_environment_variable"
  FOR EACH ROW EXECUTE FUNCTION flotilla_target_changed_through_parent('service_install');
-- A new service install has no variables yet; a moved or deleted one takes its variables along.
CREATE TRIGGER "service_install_target_changed" AFTER UPDATE OR DELETE ON "service_install"
  FOR EACH ROW EXECUTE FUNCTION flotilla_target_changed_by_column('d', 'device');

-- TRUNCATE fires no row triggers.
CREATE TRIGGER "device_target_truncated" AFTER TRUNCATE ON "device"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_target_changed_everything();
CREATE TRIGGER "application_target_truncated" AFTER TRUNCATE ON "application"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_target_changed_everything();
CREATE TRIGGER "release_target_truncated" AFTER TRUNCATE ON "release"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_target_changed_everything();
CREATE TRIGGER "release_image_target_truncated" AFTER TRUNCATE ON "release_image"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_target_changed_everything();
CREATE TRIGGER "image_target_truncated" AFTER TRUNCATE ON "image"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_target_changed_everything();
CREATE TRIGGER "service_target_truncated" AFTER TRUNCATE ON "service"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_target_changed_everything();
CREATE TRIGGER "application_config_variable_target_truncated" AFTER TRUNCATE ON "application_config_variable"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_target_changed_everything();
CREATE TRIGGER "application_environment_variable_target_truncated" AFTER TRUNCATE ON "application_environment_variable"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_target_changed_everything();
CREATE TRIGGER "device_config_variable_target_truncated" AFTER TRUNCATE ON "device_config_variable"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_target_changed_everything();
CREATE TRIGGER "device_environment_variable_target_truncated" AFTER TRUNCATE ON "device_environment_variable"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_target_changed_everything();
CREATE TRIGGER "service_environment_variable_target_truncated" AFTER TRUNCATE ON "service_environment_variable"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_target_changed_everything();
CREATE TRIGGER "service_label_target_truncated" AFTER TRUNCATE ON "service_label"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_target_changed_everything();
CREATE TRIGGER "image_environment_variable_target_truncated" AFTER TRUNCATE ON "image_environment_variable"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_target_changed_everything();
CREATE TRIGGER "image_label_target_truncated" AFTER TRUNCATE ON "image_label"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_target_changed_everything();
CREATE TRIGGER "device_service_environment_variable_target_truncated" AFTER TRUNCATE ON "device_service_environment_variable"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_target_changed_everything();
CREATE TRIGGER "service_install_target_truncated" AFTER TRUNCATE ON "service_install"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_target_changed_everything();
