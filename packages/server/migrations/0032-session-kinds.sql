-- Issue 24: an OAuth application's access token names the user's authorization of it and lives
-- only as long as that authorization (infra/auth/resolve-actor.ts). Revoking it (DELETE on /v7,
-- or the application's deletion, which cascades) must reach every process's actor cache at once:
-- it is reported as a change of the user, whose cached sessions are then looked up again.
CREATE TRIGGER "oauth_application_authorization_auth_changed"
  AFTER UPDATE OR DELETE ON "oauth_application_authorization"
  FOR EACH ROW EXECUTE FUNCTION flotilla_auth_row_changed('user', 'belongs_to__user');
