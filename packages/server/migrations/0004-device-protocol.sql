-- The device protocol (features/heartbeat, device-state, device-logs): heartbeat bookkeeping on
-- the device row, metric throttling, and device logs. None of these columns is a v7 field: the v7
-- fields api_heartbeat_state, changed_api_heartbeat_state_on__date, is_online and
-- last_connectivity_event are computed from them (model/definitions/device-status.ts), so they are
-- right on every node, after any restart, without timers. The stored columns of those four names
-- (0001-schema.sql) are no longer read.

ALTER TABLE "device"
  -- Last authenticated contact (target-state poll, state report, log stream, cloudlink), written
  -- at most once per 10 s per device.
  ADD COLUMN "last_contact_at" timestamptz,
  -- The poll interval in effect at that contact (config var, else 10 min, at least 10 s): the
  -- device learns a new interval only when it polls, so the windows follow the one it obeys.
  ADD COLUMN "poll_interval_ms" integer NOT NULL DEFAULT 600000,
  -- When the heartbeat last became 'online' (after unknown, timeout or offline).
  ADD COLUMN "online_since" timestamptz,
  -- When the device last became connected (after unknown or offline): is_online turned true.
  ADD COLUMN "connected_since" timestamptz,
  -- Last state report whose metrics were stored (metrics are kept at most once per 60 s).
  ADD COLUMN "metrics_reported_at" timestamptz;

-- Heartbeats and state reports rewrite device rows all day: leave room on each page so the new
-- row version can stay on it (HOT update, no index writes). last_contact_at is deliberately not
-- indexed for the same reason; the heartbeat is per-row arithmetic, filtered after the fleet index.
ALTER TABLE "device" SET (fillfactor = 90);

-- Rows that were online before this migration count as contacted now.
UPDATE "device" SET "last_contact_at" = now(), "online_since" = now(),
  "connected_since" = coalesce("last_connectivity_event", now())
  WHERE "is_online" OR "api_heartbeat_state" IN ('online', 'timeout');

-- A device inserted as online (imports, seeds, fixtures written against the old stored column)
-- counts as contacted at insert time.
CREATE FUNCTION flotilla_device_inserted_online() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."is_online" AND NEW."last_contact_at" IS NULL THEN
    NEW."last_contact_at" := now();
    NEW."online_since" := now();
    NEW."connected_since" := coalesce(NEW."last_connectivity_event", now());
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "device_inserted_online" BEFORE INSERT ON "device"
  FOR EACH ROW EXECUTE FUNCTION flotilla_device_inserted_online();

-- A heartbeat is not a modification: modified_at moves only when something other than the
-- bookkeeping columns above changes.
CREATE FUNCTION flotilla_touch_device_modified_at() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  bookkeeping CONSTANT text[] := ARRAY['modified_at', 'last_contact_at', 'poll_interval_ms',
    'online_since', 'connected_since', 'metrics_reported_at'];
BEGIN
  IF (to_jsonb(NEW) - bookkeeping) IS DISTINCT FROM (to_jsonb(OLD) - bookkeeping) THEN
    NEW."modified_at" := now();
  END IF;
  RETURN NEW;
END $$;
DROP TRIGGER "device_touch" ON "device";
CREATE TRIGGER "device_touch" BEFORE UPDATE ON "device"
  FOR EACH ROW EXECUTE FUNCTION flotilla_touch_device_modified_at();

-- Device logs, newest FLOTILLA_LOG_RETENTION lines per device (default 1000), trimmed on insert.
-- Times are milliseconds since the epoch, as the log protocol carries them.
CREATE TABLE "device_log" (
  "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  "device" integer NOT NULL REFERENCES "device" ON DELETE CASCADE,
  -- When the server received the line.
  "created_at" bigint NOT NULL,
  -- When the device says it happened.
  "timestamp" bigint NOT NULL,
  "message" text NOT NULL,
  "is_system" boolean NOT NULL DEFAULT false,
  "is_stderr" boolean NOT NULL DEFAULT false,
  -- The service as the device reports it (balena service id); no foreign key: logs outlive
  -- services and devices may name ids this server never issued.
  "service_id" integer
);
-- History, live reads (id > last seen) and trimming all walk one device's lines by id.
CREATE INDEX "device_log_device_id_idx" ON "device_log" ("device", "id");
