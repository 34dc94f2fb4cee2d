-- When a SAML account was linked to its user (issue 14: the account model knows SAML accounts
-- before SAML sign-in creates them). Not a v7 field (balena-sdk's typings have none); served to
-- the owner only. Rows come from SAML sign-in, never from /v7.
ALTER TABLE "saml_account" ADD COLUMN "created_at" timestamptz NOT NULL DEFAULT now();
