-- The recent history of each device's metrics (features/device-metrics): one row per reading
-- the heartbeat batch writes (at most one per device per metrics interval), trimmed to the
-- configured retention (FLOTILLA_METRICS_RETENTION_HOURS) in the same statement.
CREATE TABLE "device_metric_sample" (
  "device" integer NOT NULL REFERENCES "device" ON DELETE CASCADE,
  "at" timestamptz NOT NULL,
  "cpu_usage" integer,
  "cpu_temp" integer,
  "memory_usage" bigint,
  "memory_total" bigint,
  "storage_usage" bigint,
  "storage_total" bigint,
  PRIMARY KEY ("device", "at")
);
-- Rows arrive in time order, so a BRIN index serves the hourly sweep of devices that stopped
-- reporting (register-device-metrics.ts) at almost no cost to the inserts.
CREATE INDEX "device_metric_sample_at_idx" ON "device_metric_sample" USING brin ("at");
