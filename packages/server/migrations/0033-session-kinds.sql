-- Issue 24: an OAuth application's access token names the user's authorization of it and lives
-- only as long as that authorization (infra/auth/resolve-actor.ts). Revoking it (DELETE on /v7,
-- or the application's deletion, which cascades) must reach every process's actor cache at once:
-- it is reported as a change of the user, whose cached sessions are then looked up again.
CREATE TRIGGER "oauth_application_authorization_auth_changed"
  AFTER UPDATE OR DELETE ON "oauth_application_authorization"
  FOR EACH ROW EXECUTE FUNCTION flotilla_auth_row_changed('user', 'belongs_to__user');

-- Tokens exchanged before this version name no authorization: they would go on as full password
-- sessions for up to 36 hours. Their users' sessions end once (a new jwt_secret) so that every
-- application token still in use is of the new, bounded kind.
UPDATE "user" SET "jwt_secret" = flotilla_random_uuid() || flotilla_random_uuid()
 WHERE "id" IN (SELECT "user" FROM "oauth_authorization_code" WHERE "used_at" IS NOT NULL);
