-- Releases (issue 12).

-- update_timestamp is the release's last change: the build-status rule reads it (a running build
-- whose last update is over 120 minutes old has timed out, shared/releases/release-status.ts).
-- A write that sets it explicitly keeps its value.
CREATE FUNCTION flotilla_release_touch() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."update_timestamp" IS NOT DISTINCT FROM OLD."update_timestamp" THEN
    NEW."update_timestamp" := now();
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "release_touch" BEFORE UPDATE ON "release"
  FOR EACH ROW EXECUTE FUNCTION flotilla_release_touch();

-- The console's release list: a fleet's releases newest first, a page at a time.
CREATE INDEX "release_application_created_idx" ON "release"
  ("belongs_to__application", "created_at" DESC, "id" DESC);
