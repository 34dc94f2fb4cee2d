-- The audit log (issue 34): one row per change made through any route, written in the change's
-- own transaction. No foreign keys: a record outlives the user, key, device, fleet or
-- organization it names (retention prunes it, FLOTILLA_AUDIT_LOG_RETENTION_DAYS).
CREATE TABLE "audit_log_entry" (
  "id" bigserial PRIMARY KEY,
  "occurred_at" timestamptz NOT NULL DEFAULT now(),
  -- What happened: create, update, delete (a /v7 write), or a named event (login, login_failed,
  -- device_action, terminal_opened, terminal_closed, api_key_created, ...).
  "action" text NOT NULL,
  -- The /v7 resource (or the event's subject, e.g. "device", "user") and the row's id.
  "resource" text NOT NULL,
  "resource_id" bigint,
  -- Where the row belongs, for the organization's, fleet's and device's views.
  "organization" integer,
  "application" integer,
  "device" integer,
  -- Who: a user (through a session, an API key or an OAuth application's token), a fleet's
  -- provisioning key, a device's key, or nobody (a failed login names no signed-in user).
  "actor_kind" text NOT NULL CHECK ("actor_kind" IN ('anonymous', 'user', 'application', 'device')),
  "actor_via" text,
  "actor_user" integer,
  "actor_application" integer,
  "actor_device" integer,
  -- The platform administrator behind a login-as session.
  "impersonated_by" integer,
  -- {"field": {"old": ..., "new": ...}} with secrets masked, or the event's details.
  "changes" jsonb NOT NULL DEFAULT '{}',
  "address" text,
  "user_agent" text,
  "request_id" text
);
CREATE INDEX "audit_log_entry_occurred_at_idx" ON "audit_log_entry" ("occurred_at");
CREATE INDEX "audit_log_entry_organization_idx" ON "audit_log_entry" ("organization", "id" DESC);
CREATE INDEX "audit_log_entry_application_idx" ON "audit_log_entry" ("application", "id" DESC);
CREATE INDEX "audit_log_entry_device_idx" ON "audit_log_entry" ("device", "id" DESC);
CREATE INDEX "audit_log_entry_actor_user_idx" ON "audit_log_entry" ("actor_user", "id" DESC);
