-- The git remote keeps a bare repository per fleet in the data directory
-- (<data dir>/git/<fleet uuid>.git, features/git-remote). A fleet deleted in any way (its own
-- DELETE, its organization's, an account deletion's cascade) queues its repository here, in the
-- deleting transaction, so the directory is removed only once the deletion commits; every server
-- process LISTENs to 'flotilla_fleet_repository' and removes queued repositories, then their rows
-- (features/git-remote/repository-removal.ts).
CREATE TABLE "fleet_repository_removal" (
  "fleet_uuid" text PRIMARY KEY,
  "queued_at" timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION flotilla_fleet_repository_removal() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "fleet_repository_removal" ("fleet_uuid")
    SELECT "uuid" FROM "deleted_fleets" ON CONFLICT DO NOTHING;
  IF FOUND THEN
    PERFORM pg_notify('flotilla_fleet_repository', '');
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "application_repository_removal" AFTER DELETE ON "application"
  REFERENCING OLD TABLE AS "deleted_fleets"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_fleet_repository_removal();

-- Releases a server process's own builder builds after answering (POST /v3/buildFromUrl,
-- features/builder/build-release.ts startRelease). Such a build ends within minutes, so one still
-- running long after its start is one whose server stopped (a crash): the stuck-build sweep ends
-- it then, without waiting for the 120-minute timeout (features/releases/stuck-build-sweep.ts).
CREATE TABLE "server_build" (
  "release" integer PRIMARY KEY REFERENCES "release" ON DELETE CASCADE,
  "started_at" timestamptz NOT NULL
);
