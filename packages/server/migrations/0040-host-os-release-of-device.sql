-- A device that registers or reports the host OS it runs is told to run that host release
-- ("should_be_operated_by__release"), as balena's API does, so OS updates start from the version a
-- device really has. The release is the final, successful one of the host application of the
-- device's type whose version is the reported one (a "balenaOS " prefix and a trailing variant
-- are ignored), of the reported variant or of none. The device only moves forward: a release it
-- is already told to run that is newer (same device type) stays.
CREATE FUNCTION flotilla_device_host_release() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  reported text;
  reported_variant text := coalesce(NEW."os_variant", '');
  found_id integer;
  found_rank integer[];
  current_rank integer[];
BEGIN
  IF NEW."os_version" IS NULL THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW."os_version" IS NOT DISTINCT FROM OLD."os_version"
     AND NEW."os_variant" IS NOT DISTINCT FROM OLD."os_variant"
     AND NEW."is_of__device_type" IS NOT DISTINCT FROM OLD."is_of__device_type" THEN
    RETURN NEW;
  END IF;
  reported := substring(NEW."os_version" FROM '[0-9]+\.[0-9]+\.[0-9]+(?:[-+][0-9A-Za-z.+-]*)?');
  IF reported IS NULL THEN
    RETURN NEW;
  END IF;
  reported := regexp_replace(reported, '[.+](dev|prod)$', '');
  SELECT r."id", ARRAY[r."semver_major", r."semver_minor", r."semver_patch", coalesce(r."revision", 0)]
    INTO found_id, found_rank
    FROM "release" r JOIN "application" a ON a."id" = r."belongs_to__application"
   WHERE a."is_host" AND a."is_for__device_type" = NEW."is_of__device_type"
     AND r."is_final" AND r."status" = 'success'
     AND (r."variant" = reported_variant OR r."variant" = '')
     AND r."semver_major" || '.' || r."semver_minor" || '.' || r."semver_patch"
         || CASE WHEN r."semver_prerelease" = '' THEN '' ELSE '-' || r."semver_prerelease" END
         || CASE WHEN coalesce(r."revision", 0) > 0
              THEN '+' || CASE WHEN r."semver_build" = '' THEN '' ELSE r."semver_build" || '.' END
                   || 'rev' || r."revision"
              ELSE CASE WHEN r."semver_build" = '' THEN '' ELSE '+' || r."semver_build" END
            END = reported
   ORDER BY (r."variant" = reported_variant) DESC, r."id"
   LIMIT 1;
  IF found_id IS NULL OR found_id IS NOT DISTINCT FROM NEW."should_be_operated_by__release" THEN
    RETURN NEW;
  END IF;
  SELECT ARRAY[r."semver_major", r."semver_minor", r."semver_patch", coalesce(r."revision", 0)]
    INTO current_rank
    FROM "release" r JOIN "application" a ON a."id" = r."belongs_to__application"
   WHERE r."id" = NEW."should_be_operated_by__release"
     AND a."is_host" AND a."is_for__device_type" = NEW."is_of__device_type";
  IF current_rank IS NULL OR current_rank < found_rank THEN
    NEW."should_be_operated_by__release" := found_id;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "device_host_release" BEFORE INSERT OR UPDATE OF "os_version", "os_variant", "is_of__device_type" ON "device"
  FOR EACH ROW EXECUTE FUNCTION flotilla_device_host_release();
