-- A user links at most one account of each provider (GitHub, Google): signing in with a second
-- one would otherwise be a silent second identity. Unlinking first makes room for another.
CREATE UNIQUE INDEX "social_service_account_user_provider_key"
  ON "social_service_account" ("belongs_to__user", "provider");
