-- A device whose cloudlink drops is noticed within a minute, not after its heartbeat window (up to
-- 25 minutes at the default poll interval): the link is the device's live presence, as balena's
-- VPN is. cloudlink_lost_at is when the device's own link closed (not a server shutdown or a
-- crashed node: those say nothing about the device); any later contact clears it
-- (features/heartbeat/write-device-contacts.ts), as does a new link.
--
-- While it is set, both deadlines are cut to 30 s after the loss (time for the agent to reconnect):
-- the device is timing out from the loss and offline after those 30 s. Cutting both keeps
-- online_until = timeout_until - poll interval, which the status tally relies on (0022). A
-- generated column's expression cannot be changed in place before PostgreSQL 17, so the two are
-- made again (their index with them); every existing row has no loss, so each keeps its values
-- and the tally stays exact.
ALTER TABLE "device" ADD COLUMN "cloudlink_lost_at" timestamptz;

DROP INDEX "device_status_idx";
ALTER TABLE "device" DROP COLUMN "online_until", DROP COLUMN "timeout_until";

ALTER TABLE "device"
  ADD COLUMN "online_until" timestamptz GENERATED ALWAYS AS (
    CASE WHEN "cloudlink_lost_at" IS NULL OR "last_contact_at" IS NULL THEN
      ("last_contact_at" AT TIME ZONE 'UTC'
        + ("poll_interval_ms" * 1.5 + 10000) * interval '1 millisecond') AT TIME ZONE 'UTC'
    ELSE least(
      ("last_contact_at" AT TIME ZONE 'UTC'
        + ("poll_interval_ms" * 1.5 + 10000) * interval '1 millisecond') AT TIME ZONE 'UTC',
      ("cloudlink_lost_at" AT TIME ZONE 'UTC'
        + (30000 - "poll_interval_ms") * interval '1 millisecond') AT TIME ZONE 'UTC')
    END
  ) STORED,
  ADD COLUMN "timeout_until" timestamptz GENERATED ALWAYS AS (
    CASE WHEN "cloudlink_lost_at" IS NULL OR "last_contact_at" IS NULL THEN
      ("last_contact_at" AT TIME ZONE 'UTC'
        + ("poll_interval_ms" * 2.5 + 10000) * interval '1 millisecond') AT TIME ZONE 'UTC'
    ELSE least(
      ("last_contact_at" AT TIME ZONE 'UTC'
        + ("poll_interval_ms" * 2.5 + 10000) * interval '1 millisecond') AT TIME ZONE 'UTC',
      ("cloudlink_lost_at" AT TIME ZONE 'UTC' + interval '30 seconds') AT TIME ZONE 'UTC')
    END
  ) STORED;

CREATE INDEX "device_status_idx" ON "device"
  ("belongs_to__application", "overall_status_base", "timeout_until", "online_until")
  INCLUDE ("id");

-- The loss is bookkeeping like the deadlines: it does not count as a modification of the device.
CREATE OR REPLACE FUNCTION flotilla_touch_device_modified_at() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  bookkeeping CONSTANT text[] := ARRAY['modified_at', 'last_contact_at', 'poll_interval_ms',
    'online_since', 'connected_since', 'metrics_reported_at', 'applied_apps_digest',
    'online_until', 'timeout_until', 'overall_status_base', 'cloudlink_lost_at'];
BEGIN
  IF (to_jsonb(NEW) - bookkeeping) IS DISTINCT FROM (to_jsonb(OLD) - bookkeeping) THEN
    NEW."modified_at" := now();
  END IF;
  RETURN NEW;
END $$;
