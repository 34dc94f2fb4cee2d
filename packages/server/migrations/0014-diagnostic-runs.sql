-- Health checks and diagnostics runs (features/diagnostics): one row per run asked for through
-- POST /actions/v1/:uuid/:action, updated when the device answers, so that a reload shows the
-- last run. Only the newest runs of each device and action are kept (the feature trims).
CREATE TABLE "diagnostic_run" (
  "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  "device" integer NOT NULL REFERENCES "device" ON DELETE CASCADE,
  "action" text NOT NULL CHECK ("action" IN ('checks', 'diagnose')),
  "status" text NOT NULL CHECK ("status" IN ('configuring', 'in_progress', 'done', 'error')),
  "created_at" timestamptz NOT NULL,
  "finished_at" timestamptz,
  "diagnose_version" text,
  "checks" jsonb,
  "stdout" text,
  "error" text
);
CREATE INDEX "diagnostic_run_device_action_idx" ON "diagnostic_run" ("device", "action", "id" DESC);
