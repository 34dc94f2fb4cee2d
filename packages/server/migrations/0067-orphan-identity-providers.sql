-- An identity provider serves the organizations of its memberships, and only their administrators
-- manage it. The API keeps at least one (features/sso refuses to remove the last membership), but
-- deleting an organization removes its memberships by cascade: a provider whose last organization
-- goes would sign nobody in to anything and be managed by no one but the platform administrator.
-- It is removed with its SAML accounts (the accounts' users lose only that way in, which led to an
-- organization that no longer exists; the accounts themselves stay, and "Forgot password?" gives
-- them a password). Whatever removes the last membership, the provider goes with it.
CREATE FUNCTION "identity_provider_remove_orphan"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "identity_provider" ip
   WHERE ip."id" = OLD."is_authorized_by__identity_provider"
     AND NOT EXISTS (
       SELECT 1 FROM "identity_provider_membership" m
        WHERE m."is_authorized_by__identity_provider" = ip."id"
     );
  RETURN NULL;
END;
$$;

CREATE TRIGGER "identity_provider_membership_orphan"
  AFTER DELETE ON "identity_provider_membership"
  FOR EACH ROW EXECUTE FUNCTION "identity_provider_remove_orphan"();

-- Providers already left without an organization by earlier deletions.
DELETE FROM "identity_provider" ip
 WHERE NOT EXISTS (
   SELECT 1 FROM "identity_provider_membership" m
    WHERE m."is_authorized_by__identity_provider" = ip."id"
 );
