-- The target state names the host OS release a device should run
-- ("should_be_operated_by__release"), so a change of it notifies the device's key like the
-- other columns the target is built from (0008).
DROP TRIGGER "device_target_changed" ON "device";
CREATE TRIGGER "device_target_changed" AFTER UPDATE OF "uuid", "device_name",
    "belongs_to__application", "is_pinned_on__release", "is_active", "is_of__device_type",
    "should_be_operated_by__release" ON "device"
  FOR EACH ROW WHEN (
    OLD."uuid" IS DISTINCT FROM NEW."uuid"
    OR OLD."device_name" IS DISTINCT FROM NEW."device_name"
    OR OLD."belongs_to__application" IS DISTINCT FROM NEW."belongs_to__application"
    OR OLD."is_pinned_on__release" IS DISTINCT FROM NEW."is_pinned_on__release"
    OR OLD."is_active" IS DISTINCT FROM NEW."is_active"
    OR OLD."is_of__device_type" IS DISTINCT FROM NEW."is_of__device_type"
    OR OLD."should_be_operated_by__release" IS DISTINCT FROM NEW."should_be_operated_by__release")
  EXECUTE FUNCTION flotilla_target_changed_by_column('d', 'id');
