-- Heartbeat deadlines and the part of overall_status that depends on the device row alone, kept
-- by PostgreSQL itself (stored generated columns: no writer maintains them, however it writes
-- last_contact_at). The computed v7 fields compare them with now()
-- (model/definitions/device-status.ts), and a status count is an index-only range scan per fleet
-- instead of evaluating overall_status, with its subqueries, for every device of the fleet.
--
-- A generated column must be immutable, and timestamptz + interval is only stable (a day or month
-- interval depends on the time zone): the deadlines add the millisecond interval to the UTC wall
-- time, which is the same instant. The windows are heartbeatTimings' (device-status.ts):
--   online_until   last contact + poll interval x 1.5 + 10 s (online until then);
--   timeout_until  last contact + poll interval x 2.5 + 10 s (timing out until then, then offline).
-- Both are NULL while the device was never contacted.
ALTER TABLE "device"
  ADD COLUMN "online_until" timestamptz GENERATED ALWAYS AS (
    ("last_contact_at" AT TIME ZONE 'UTC'
      + ("poll_interval_ms" * 1.5 + 10000) * interval '1 millisecond') AT TIME ZONE 'UTC'
  ) STORED,
  ADD COLUMN "timeout_until" timestamptz GENERATED ALWAYS AS (
    ("last_contact_at" AT TIME ZONE 'UTC'
      + ("poll_interval_ms" * 2.5 + 10000) * interval '1 millisecond') AT TIME ZONE 'UTC'
  ) STORED,
  -- The first rule of overall_status that the row decides on its own:
  --   inactive, post-provisioning, unseen (never contacted), updating (the device's own download
  --   and update state), provisioning (provisioning_progress set), no-vpn (not connected to
  --   cloudlink), ok.
  -- The rest (offline, image installs downloading, VPN expected, timing out) is decided at read.
  ADD COLUMN "overall_status_base" text NOT NULL GENERATED ALWAYS AS (CASE
    WHEN NOT "is_active" THEN 'inactive'
    WHEN "provisioning_state" = 'Post-Provisioning' THEN 'post-provisioning'
    WHEN "last_contact_at" IS NULL THEN 'unseen'
    WHEN ("download_progress" IS NOT NULL AND "download_progress" < 100)
      OR "status" IN ('Downloading', 'Updating')
      OR "update_status" IN ('downloading', 'applying changes') THEN 'updating'
    WHEN "provisioning_progress" IS NOT NULL THEN 'provisioning'
    WHEN NOT "is_connected_to_vpn" THEN 'no-vpn'
    ELSE 'ok'
  END) STORED;

-- Per fleet, per status base, by deadline: every status count reads this index alone (the id is
-- there for the image-install and VPN checks of the few statuses that need them). It leads with
-- the fleet, so it replaces the plain foreign-key index. Indexing the deadlines means a contact
-- write is no longer a HOT update (0004 kept last_contact_at out of every index for that): the
-- price of counts that do not read every device of every fleet.
CREATE INDEX "device_status_idx" ON "device"
  ("belongs_to__application", "overall_status_base", "timeout_until", "online_until")
  INCLUDE ("id");
DROP INDEX "device_belongs_to__application_idx";

-- Image installs still downloading (an 'updating' device): few at any time, read as one set.
CREATE INDEX "image_install_downloading_idx" ON "image_install" ("device")
  WHERE "status" = 'Downloading' OR ("download_progress" IS NOT NULL AND "download_progress" < 100);

-- Devices with a VPN control variable of their own (few): one set for status counts.
CREATE INDEX "device_config_variable_vpn_idx" ON "device_config_variable" ("device")
  WHERE "name" IN ('RESIN_SUPERVISOR_VPN_CONTROL', 'BALENA_SUPERVISOR_VPN_CONTROL');

-- (Keeps 0009's bookkeeping columns.) PostgreSQL computes generated columns after BEFORE triggers, which see them as NULL: the
-- modified_at trigger leaves them out of its comparison (they follow the columns they are computed
-- from, which it does compare), so a heartbeat still does not count as a modification.
CREATE OR REPLACE FUNCTION flotilla_touch_device_modified_at() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  bookkeeping CONSTANT text[] := ARRAY['modified_at', 'last_contact_at', 'poll_interval_ms',
    'online_since', 'connected_since', 'metrics_reported_at', 'applied_apps_digest',
    'online_until', 'timeout_until', 'overall_status_base'];
BEGIN
  IF (to_jsonb(NEW) - bookkeeping) IS DISTINCT FROM (to_jsonb(OLD) - bookkeeping) THEN
    NEW."modified_at" := now();
  END IF;
  RETURN NEW;
END $$;
