-- Every server process caches, briefly, who a session token or API key is
-- (packages/server/src/infra/auth/actor-cache.ts). These triggers report every change that
-- alters such an answer, whoever makes it (the OData engine, a feature route, raw SQL, another
-- process), so no write path has to remember to:
--   pg_notify('flotilla_auth', subject) reaches every listening process after commit;
--   RAISE NOTICE reaches the connection making the change before its statement returns, so the
--   process that revoked a key never accepts it again, not even before its notification arrives.
-- Subjects: 'user:<id>' (jwt_secret, platform roles, the user itself), 'actor:<id>' (the API keys
-- of an actor, and the fleet or device owning it: a device key carries its fleet), '*' (all).
-- Inserts need no report: only successful resolutions are cached.

CREATE FUNCTION flotilla_auth_changed(subject text) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('flotilla_auth', subject);
  RAISE NOTICE 'flotilla_auth_changed' USING DETAIL = subject;
END $$;

-- Row trigger: TG_ARGV[0] is the subject kind, TG_ARGV[1] the column holding its id.
CREATE FUNCTION flotilla_auth_row_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  old_id text;
  new_id text;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    old_id := to_jsonb(OLD) ->> TG_ARGV[1];
    PERFORM flotilla_auth_changed(TG_ARGV[0] || ':' || old_id);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    new_id := to_jsonb(NEW) ->> TG_ARGV[1];
    IF new_id IS DISTINCT FROM old_id THEN
      PERFORM flotilla_auth_changed(TG_ARGV[0] || ':' || new_id);
    END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION flotilla_auth_truncated() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM flotilla_auth_changed('*');
  RETURN NULL;
END $$;

-- Sessions: a rotated jwt_secret revokes them; the actor id is part of the resolved actor.
CREATE TRIGGER "user_auth_changed" AFTER UPDATE ON "user"
  FOR EACH ROW
  WHEN (OLD."jwt_secret" IS DISTINCT FROM NEW."jwt_secret"
        OR OLD."actor" IS DISTINCT FROM NEW."actor"
        OR OLD."id" IS DISTINCT FROM NEW."id")
  EXECUTE FUNCTION flotilla_auth_row_changed('user', 'id');
CREATE TRIGGER "user_auth_deleted" AFTER DELETE ON "user"
  FOR EACH ROW EXECUTE FUNCTION flotilla_auth_row_changed('user', 'id');

-- Platform roles (admin.home, support.home) are carried by the actor.
CREATE TRIGGER "user_platform_role_auth_changed" AFTER INSERT OR UPDATE OR DELETE ON "user_platform_role"
  FOR EACH ROW EXECUTE FUNCTION flotilla_auth_row_changed('user', 'user');

-- API keys: revoked (deleted, also through the owner's deletion), expiry changed, re-pointed.
CREATE TRIGGER "api_key_auth_changed" AFTER UPDATE ON "api_key"
  FOR EACH ROW
  WHEN (OLD."key_hash" IS DISTINCT FROM NEW."key_hash"
        OR OLD."expiry_date" IS DISTINCT FROM NEW."expiry_date"
        OR OLD."is_of__actor" IS DISTINCT FROM NEW."is_of__actor")
  EXECUTE FUNCTION flotilla_auth_row_changed('actor', 'is_of__actor');
CREATE TRIGGER "api_key_auth_deleted" AFTER DELETE ON "api_key"
  FOR EACH ROW EXECUTE FUNCTION flotilla_auth_row_changed('actor', 'is_of__actor');

-- A device key's actor names the device's fleet: moving or deleting the device changes it. The
-- WHEN keeps the frequent device updates (heartbeats, state reports) free of any work.
CREATE TRIGGER "device_auth_changed" AFTER UPDATE ON "device"
  FOR EACH ROW
  WHEN (OLD."belongs_to__application" IS DISTINCT FROM NEW."belongs_to__application"
        OR OLD."actor" IS DISTINCT FROM NEW."actor"
        OR OLD."id" IS DISTINCT FROM NEW."id")
  EXECUTE FUNCTION flotilla_auth_row_changed('actor', 'actor');
CREATE TRIGGER "device_auth_deleted" AFTER DELETE ON "device"
  FOR EACH ROW EXECUTE FUNCTION flotilla_auth_row_changed('actor', 'actor');

-- A provisioning key's actor names its fleet.
CREATE TRIGGER "application_auth_changed" AFTER UPDATE ON "application"
  FOR EACH ROW
  WHEN (OLD."actor" IS DISTINCT FROM NEW."actor" OR OLD."id" IS DISTINCT FROM NEW."id")
  EXECUTE FUNCTION flotilla_auth_row_changed('actor', 'actor');
CREATE TRIGGER "application_auth_deleted" AFTER DELETE ON "application"
  FOR EACH ROW EXECUTE FUNCTION flotilla_auth_row_changed('actor', 'actor');

CREATE TRIGGER "user_auth_truncated" AFTER TRUNCATE ON "user"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_auth_truncated();
CREATE TRIGGER "user_platform_role_auth_truncated" AFTER TRUNCATE ON "user_platform_role"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_auth_truncated();
CREATE TRIGGER "api_key_auth_truncated" AFTER TRUNCATE ON "api_key"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_auth_truncated();
CREATE TRIGGER "device_auth_truncated" AFTER TRUNCATE ON "device"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_auth_truncated();
CREATE TRIGGER "application_auth_truncated" AFTER TRUNCATE ON "application"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_auth_truncated();
