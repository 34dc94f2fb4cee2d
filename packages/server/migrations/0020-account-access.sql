-- Issue 14: account access (the e-mail verification gate, recovery codes on /v7).

-- A user who must verify their e-mail address and has not yet may do nothing but verify
-- (infra/http/email-verification-gate.ts). Whether they still must is part of the resolved actor,
-- so the actor cache drops a user's entries when either flag changes, as for jwt_secret (0007).
DROP TRIGGER "user_auth_changed" ON "user";
CREATE TRIGGER "user_auth_changed" AFTER UPDATE ON "user"
  FOR EACH ROW
  WHEN (OLD."jwt_secret" IS DISTINCT FROM NEW."jwt_secret"
        OR OLD."actor" IS DISTINCT FROM NEW."actor"
        OR OLD."id" IS DISTINCT FROM NEW."id"
        OR OLD."must_be_verified" IS DISTINCT FROM NEW."must_be_verified"
        OR OLD."is_verified" IS DISTINCT FROM NEW."is_verified")
  EXECUTE FUNCTION flotilla_auth_row_changed('user', 'id');

-- balena's v7 `recovery_two_factor` (balena-sdk's typings): a user's recovery codes as rows of
-- id, owner and time of use. The view leaves the code hashes out: nobody reads them through /v7.
CREATE VIEW "recovery_two_factor" ("id", "belongs_to__user", "used_timestamp") AS
  SELECT "id", "user", "used_at" FROM "user_recovery_code";
