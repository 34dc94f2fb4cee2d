-- The account page shows the username and when the account was created; both are read through
-- user_profile like the rest of the account's details. New columns go last (a view keeps its
-- columns' order when replaced).
CREATE OR REPLACE VIEW "user_profile" (
  "id", "is_of__user", "email", "has_disabled_newsletter", "is_verified", "must_be_verified",
  "first_name", "last_name", "account_type", "has_password_set", "company", "created_at",
  "username"
) AS
  SELECT u."id", u."id", u."email", u."has_disabled_newsletter", u."is_verified",
    u."must_be_verified", u."first_name", u."last_name", u."account_type",
    u."password_hash" IS NOT NULL, u."company", u."created_at", u."username"
  FROM "user" u;
