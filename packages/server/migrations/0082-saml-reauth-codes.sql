-- A "reauth" code: an assertion that confirms the identity of a signed-in user (re-authentication
-- through the SAML provider their account came from), spent by that user's own session only.
ALTER TABLE "saml_login_code" DROP CONSTRAINT "saml_login_code_kind_check";
ALTER TABLE "saml_login_code"
  ADD CONSTRAINT "saml_login_code_kind_check" CHECK ("kind" IN ('signon', 'merge', 'reauth'));
