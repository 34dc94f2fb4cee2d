-- SAML sign-in (features/sso). Each assertion an identity provider signs is accepted once: its
-- id is kept until the assertion could no longer be valid anyway, so a captured response cannot
-- be posted again.
CREATE TABLE "saml_assertion_use" (
  "identity_provider" integer NOT NULL REFERENCES "identity_provider" ON DELETE CASCADE,
  "assertion_id" text NOT NULL,
  "expires_at" timestamptz NOT NULL,
  PRIMARY KEY ("identity_provider", "assertion_id")
);
CREATE INDEX "saml_assertion_use_expires_at_idx" ON "saml_assertion_use" ("expires_at");

-- The one-time code the assertion consumer hands to the console, which finalizes it into a
-- session (POST /auth/saml/finalize). Only its hash is stored. A "signon" code names the user;
-- a "merge" code names the existing user whose e-mail the assertion carried, and links the SAML
-- account to it only when that user, signed in, consents.
CREATE TABLE "saml_login_code" (
  "code_hash" text PRIMARY KEY,
  "kind" text NOT NULL CHECK ("kind" IN ('signon', 'merge')),
  "user" integer NOT NULL REFERENCES "user" ON DELETE CASCADE,
  "identity_provider" integer NOT NULL REFERENCES "identity_provider" ON DELETE CASCADE,
  "remote_id" text NOT NULL,
  "display_name" text,
  "expires_at" timestamptz NOT NULL,
  "used_at" timestamptz
);
CREATE INDEX "saml_login_code_expires_at_idx" ON "saml_login_code" ("expires_at");
CREATE INDEX "saml_login_code_user_idx" ON "saml_login_code" ("user");
CREATE INDEX "saml_login_code_identity_provider_idx" ON "saml_login_code" ("identity_provider");
