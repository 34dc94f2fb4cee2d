-- The product's own services (features/status, feature-flags, error-reports, analytics): built-in
-- equivalents of a status page, a feature-flag service, an error tracker and analytics.

-- Incidents and maintenance notices a platform administrator posts on the status page. A notice
-- is shown while it is not resolved.
CREATE TABLE "status_notice" (
  "id" serial PRIMARY KEY,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "kind" text NOT NULL CHECK ("kind" IN ('incident', 'maintenance')),
  "severity" text NOT NULL CHECK ("severity" IN ('minor', 'major')),
  "title" text NOT NULL CHECK (length("title") BETWEEN 1 AND 200),
  "message" text NOT NULL DEFAULT '' CHECK (length("message") <= 5000),
  "resolved_at" timestamptz,
  "is_posted_by__user" integer REFERENCES "user" ("id") ON DELETE SET NULL
);
CREATE INDEX "status_notice_open_idx" ON "status_notice" ("created_at") WHERE "resolved_at" IS NULL;
CREATE INDEX "status_notice_user_idx" ON "status_notice" ("is_posted_by__user");

-- A flag's value for everyone (no organization, no user), for one organization or for one user.
-- The flags themselves are declared in code (shared/src/feature-flags); a flag without a row
-- takes its declared default.
CREATE TABLE "feature_flag_setting" (
  "id" serial PRIMARY KEY,
  "flag" text NOT NULL CHECK ("flag" ~ '^[a-z][a-z0-9-]{0,63}$'),
  "organization" integer REFERENCES "organization" ("id") ON DELETE CASCADE,
  "user" integer REFERENCES "user" ("id") ON DELETE CASCADE,
  "enabled" boolean NOT NULL,
  "updated_at" timestamptz NOT NULL DEFAULT now(),
  CHECK ("organization" IS NULL OR "user" IS NULL)
);
CREATE UNIQUE INDEX "feature_flag_setting_scope_key"
  ON "feature_flag_setting" ("flag", coalesce("organization", 0), coalesce("user", 0));
CREATE INDEX "feature_flag_setting_organization_idx" ON "feature_flag_setting" ("organization");
CREATE INDEX "feature_flag_setting_user_idx" ON "feature_flag_setting" ("user");

-- Errors of the console and of the server, one row per fingerprint with its count.
CREATE TABLE "error_report" (
  "id" serial PRIMARY KEY,
  "source" text NOT NULL CHECK ("source" IN ('console', 'server')),
  "fingerprint" text NOT NULL,
  "name" text NOT NULL,
  "message" text NOT NULL,
  "stack" text NOT NULL DEFAULT '',
  "location" text NOT NULL DEFAULT '',
  "release" text NOT NULL DEFAULT '',
  "last_request_id" text,
  "count" bigint NOT NULL DEFAULT 1,
  "first_seen_at" timestamptz NOT NULL,
  "last_seen_at" timestamptz NOT NULL,
  UNIQUE ("source", "fingerprint")
);
CREATE INDEX "error_report_last_seen_idx" ON "error_report" ("last_seen_at" DESC);

-- First-party usage counts: how often a page (a route pattern, never a concrete address) or a
-- feature was used per day. Nothing identifies who used it.
CREATE TABLE "usage_count" (
  "day" date NOT NULL,
  "kind" text NOT NULL CHECK ("kind" IN ('page', 'feature')),
  "name" text NOT NULL,
  "count" bigint NOT NULL DEFAULT 0,
  PRIMARY KEY ("day", "kind", "name")
);
