-- Events out (docs/EVENTS.md): every change an operator's systems may want to hear of is written to
-- "event_outbox" by a trigger, in the transaction that makes the change, whichever path writes it
-- (/v7, state reports, contacts, the builder). A committed change therefore always has its event
-- and a rolled-back one never does. The server reads the outbox after commit (woken by NOTIFY on
-- flotilla_events, and by a periodic catch-up), fans each event out to the webhook endpoints that
-- want it, and marks it done in the same transaction: each (endpoint, event) gets exactly one
-- delivery row, whose id the receiver sees on every attempt.

CREATE TABLE "event_outbox" (
  "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  "event_uuid" text NOT NULL DEFAULT flotilla_random_uuid(),
  "type" text NOT NULL,
  "version" integer NOT NULL DEFAULT 1,
  -- No foreign keys: an event outlives what it tells of (a deleted device's last events).
  "organization" integer NOT NULL,
  "fleet" integer,
  "device" integer,
  "occurred_at" timestamptz NOT NULL DEFAULT now(),
  "data" jsonb NOT NULL,
  -- Set when fanned out to the webhook endpoints (in that transaction).
  "fanned_out_at" timestamptz,
  CONSTRAINT "event_outbox_event_uuid_key" UNIQUE ("event_uuid")
);
CREATE INDEX "event_outbox_pending_idx" ON "event_outbox" ("id") WHERE "fanned_out_at" IS NULL;
CREATE INDEX "event_outbox_occurred_at_idx" ON "event_outbox" ("occurred_at");

CREATE FUNCTION flotilla_emit_event(
  kind text, org integer, fleet integer, dev integer, payload jsonb, at timestamptz DEFAULT now()
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Nothing to tell when the owner is gone (rows deleted by a cascade from their fleet).
  IF org IS NULL THEN RETURN; END IF;
  INSERT INTO "event_outbox" ("type", "organization", "fleet", "device", "occurred_at", "data")
  VALUES (kind, org, fleet, dev, at, payload);
END $$;

-- One wake-up per transaction (PostgreSQL folds identical notifications of one transaction).
CREATE FUNCTION flotilla_notify_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('flotilla_events', '');
  RETURN NULL;
END $$;
CREATE TRIGGER "event_outbox_notify" AFTER INSERT ON "event_outbox"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_notify_events();

-- ---------------------------------------------------------------------------------------------
-- Devices: online/offline, overall status, update status
-- ---------------------------------------------------------------------------------------------

-- The devices last announced online, with the deadline to check them at. A device is online while
-- timeout_until >= now() (device.is_online). Going online is seen by the write that moves the
-- deadline from the past into the future (a trigger that fires only on that transition, so a
-- steady heartbeat costs one comparison); going offline is seen by the sweep
-- (features/webhooks/presence-sweep.ts), which reads only rows whose check_at has passed (one
-- index range) and either announces offline or moves check_at to the device's current deadline.
-- Every online device thus costs one small update per deadline window, not per heartbeat.
CREATE TABLE "device_presence" (
  "device" integer PRIMARY KEY REFERENCES "device" ON DELETE CASCADE,
  "check_at" timestamptz NOT NULL
);
CREATE INDEX "device_presence_check_at_idx" ON "device_presence" ("check_at");

INSERT INTO "device_presence" ("device", "check_at")
  SELECT "id", "timeout_until" FROM "device" WHERE "timeout_until" >= now();

CREATE FUNCTION flotilla_device_fleet_org(fleet integer) RETURNS integer
  LANGUAGE sql STABLE AS $$ SELECT "organization" FROM "application" WHERE "id" = fleet $$;

CREATE FUNCTION flotilla_device_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  org integer := flotilla_device_fleet_org(NEW."belongs_to__application");
  fleet integer := NEW."belongs_to__application";
  base jsonb := jsonb_build_object('device', NEW."id", 'uuid', NEW."uuid",
    'deviceName', NEW."device_name", 'fleet', fleet);
  was_online boolean := TG_OP = 'UPDATE' AND coalesce(OLD."timeout_until" >= now(), false);
  is_online boolean := coalesce(NEW."timeout_until" >= now(), false);
  stale timestamptz;
BEGIN
  IF is_online AND NOT was_online THEN
    -- Announced online and not yet seen offline by the sweep: tell the offline first.
    DELETE FROM "device_presence" WHERE "device" = NEW."id" RETURNING "check_at" INTO stale;
    IF FOUND THEN
      PERFORM flotilla_emit_event('device.offline', org, fleet, NEW."id", base,
        least(coalesce(OLD."timeout_until", stale), now()));
    END IF;
    INSERT INTO "device_presence" ("device", "check_at") VALUES (NEW."id", NEW."timeout_until");
    PERFORM flotilla_emit_event('device.online', org, fleet, NEW."id", base);
  ELSIF was_online AND (NEW."timeout_until" IS NULL OR NEW."timeout_until" < OLD."timeout_until") THEN
    -- The deadline moved earlier (the cloudlink dropped): the sweep must look sooner.
    UPDATE "device_presence" SET "check_at" = coalesce(NEW."timeout_until", now())
     WHERE "device" = NEW."id";
  END IF;
  IF TG_OP = 'UPDATE' AND OLD."overall_status_base" IS DISTINCT FROM NEW."overall_status_base" THEN
    PERFORM flotilla_emit_event('device.overall_status_changed', org, fleet, NEW."id",
      base || jsonb_build_object('previous', OLD."overall_status_base",
        'current', NEW."overall_status_base"));
  END IF;
  IF TG_OP = 'UPDATE' AND OLD."update_status" IS DISTINCT FROM NEW."update_status" THEN
    PERFORM flotilla_emit_event('device.update_status_changed', org, fleet, NEW."id",
      base || jsonb_build_object('previous', OLD."update_status", 'current', NEW."update_status"));
  END IF;
  RETURN NULL;
END $$;

-- The conditions are the function's, so that a contact that changes none of them (every steady
-- heartbeat) does not call it.
CREATE TRIGGER "device_events" AFTER UPDATE ON "device"
  FOR EACH ROW WHEN (
    OLD."overall_status_base" IS DISTINCT FROM NEW."overall_status_base"
    OR OLD."update_status" IS DISTINCT FROM NEW."update_status"
    OR (NEW."timeout_until" >= now()
        AND (OLD."timeout_until" IS NULL OR OLD."timeout_until" < now()))
    OR (OLD."timeout_until" >= now()
        AND (NEW."timeout_until" IS NULL OR NEW."timeout_until" < OLD."timeout_until")))
  EXECUTE FUNCTION flotilla_device_events();
CREATE TRIGGER "device_events_created" AFTER INSERT ON "device"
  FOR EACH ROW WHEN (NEW."timeout_until" >= now())
  EXECUTE FUNCTION flotilla_device_events();

-- ---------------------------------------------------------------------------------------------
-- Releases
-- ---------------------------------------------------------------------------------------------

CREATE FUNCTION flotilla_release_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  org integer := flotilla_device_fleet_org(NEW."belongs_to__application");
  payload jsonb := jsonb_build_object('release', NEW."id", 'commit', NEW."commit",
    'fleet', NEW."belongs_to__application", 'status', NEW."status", 'source', NEW."source");
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM flotilla_emit_event('release.created', org, NEW."belongs_to__application", NULL, payload);
  END IF;
  IF (TG_OP = 'INSERT' OR OLD."status" IS DISTINCT FROM NEW."status")
     AND NEW."status" IN ('success', 'failed') THEN
    PERFORM flotilla_emit_event(
      CASE NEW."status" WHEN 'success' THEN 'release.succeeded' ELSE 'release.failed' END,
      org, NEW."belongs_to__application", NULL, payload);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "release_events_created" AFTER INSERT ON "release"
  FOR EACH ROW EXECUTE FUNCTION flotilla_release_events();
CREATE TRIGGER "release_events_status" AFTER UPDATE OF "status" ON "release"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status")
  EXECUTE FUNCTION flotilla_release_events();

-- ---------------------------------------------------------------------------------------------
-- Variables (names only: values may be secrets)
-- ---------------------------------------------------------------------------------------------

-- TG_ARGV = (kind: fleet | device | service | service-install, the column naming the owner).
CREATE FUNCTION flotilla_variable_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target jsonb := CASE WHEN TG_OP = 'DELETE' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END;
  owner integer := (target ->> TG_ARGV[1])::integer;
  fleet integer;
  dev integer;
  org integer;
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD."name", OLD."value") IS NOT DISTINCT FROM (NEW."name", NEW."value") THEN
    RETURN NULL;
  END IF;
  IF TG_ARGV[0] = 'fleet' THEN
    fleet := owner;
  ELSIF TG_ARGV[0] = 'device' THEN
    dev := owner;
  ELSIF TG_ARGV[0] = 'service' THEN
    SELECT "application" INTO fleet FROM "service" WHERE "id" = owner;
  ELSE
    SELECT "device" INTO dev FROM "service_install" WHERE "id" = owner;
  END IF;
  IF dev IS NOT NULL THEN
    SELECT "belongs_to__application" INTO fleet FROM "device" WHERE "id" = dev;
  END IF;
  org := flotilla_device_fleet_org(fleet);
  PERFORM flotilla_emit_event('variable.changed', org, fleet, dev, jsonb_build_object(
    'table', TG_TABLE_NAME, 'name', target ->> 'name', 'fleet', fleet, 'device', dev,
    'change', CASE TG_OP WHEN 'INSERT' THEN 'created' WHEN 'UPDATE' THEN 'updated' ELSE 'deleted' END));
  RETURN NULL;
END $$;
CREATE TRIGGER "application_environment_variable_events" AFTER INSERT OR UPDATE OR DELETE
  ON "application_environment_variable" FOR EACH ROW
  EXECUTE FUNCTION flotilla_variable_events('fleet', 'application');
CREATE TRIGGER "application_config_variable_events" AFTER INSERT OR UPDATE OR DELETE
  ON "application_config_variable" FOR EACH ROW
  EXECUTE FUNCTION flotilla_variable_events('fleet', 'application');
CREATE TRIGGER "build_environment_variable_events" AFTER INSERT OR UPDATE OR DELETE
  ON "build_environment_variable" FOR EACH ROW
  EXECUTE FUNCTION flotilla_variable_events('fleet', 'application');
CREATE TRIGGER "service_environment_variable_events" AFTER INSERT OR UPDATE OR DELETE
  ON "service_environment_variable" FOR EACH ROW
  EXECUTE FUNCTION flotilla_variable_events('service', 'service');
CREATE TRIGGER "device_environment_variable_events" AFTER INSERT OR UPDATE OR DELETE
  ON "device_environment_variable" FOR EACH ROW
  EXECUTE FUNCTION flotilla_variable_events('device', 'device');
CREATE TRIGGER "device_config_variable_events" AFTER INSERT OR UPDATE OR DELETE
  ON "device_config_variable" FOR EACH ROW
  EXECUTE FUNCTION flotilla_variable_events('device', 'device');
CREATE TRIGGER "device_service_environment_variable_events" AFTER INSERT OR UPDATE OR DELETE
  ON "device_service_environment_variable" FOR EACH ROW
  EXECUTE FUNCTION flotilla_variable_events('service-install', 'service_install');

-- ---------------------------------------------------------------------------------------------
-- Members
-- ---------------------------------------------------------------------------------------------

CREATE FUNCTION flotilla_member_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target jsonb := CASE WHEN TG_OP = 'DELETE' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END;
  fleet integer;
  org integer;
  role text;
BEGIN
  IF TG_TABLE_NAME = 'organization_membership' THEN
    org := (target ->> 'is_member_of__organization')::integer;
    -- Still there during the cascade of a deleted organization? Then nobody is told.
    PERFORM 1 FROM "organization" WHERE "id" = org;
    IF NOT FOUND THEN RETURN NULL; END IF;
    SELECT "name" INTO role FROM "organization_membership_role"
     WHERE "id" = (target ->> 'organization_membership_role')::integer;
  ELSE
    fleet := (target ->> 'is_member_of__application')::integer;
    org := flotilla_device_fleet_org(fleet);
    SELECT "name" INTO role FROM "application_membership_role"
     WHERE "id" = (target ->> 'application_membership_role')::integer;
  END IF;
  PERFORM flotilla_emit_event(
    CASE TG_OP WHEN 'INSERT' THEN 'member.added' ELSE 'member.removed' END, org, fleet, NULL,
    jsonb_build_object('user', (target ->> 'user')::integer,
      'username', (SELECT "username" FROM "user" WHERE "id" = (target ->> 'user')::integer),
      'role', role, 'fleet', fleet));
  RETURN NULL;
END $$;
CREATE TRIGGER "organization_membership_events" AFTER INSERT OR DELETE ON "organization_membership"
  FOR EACH ROW EXECUTE FUNCTION flotilla_member_events();
CREATE TRIGGER "user_application_membership_events" AFTER INSERT OR DELETE
  ON "user_application_membership" FOR EACH ROW EXECUTE FUNCTION flotilla_member_events();

-- ---------------------------------------------------------------------------------------------
-- Keys of a fleet (provisioning keys) and of its devices (device keys); a user's own keys belong
-- to no organization and tell nobody.
-- ---------------------------------------------------------------------------------------------

CREATE FUNCTION flotilla_key_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target jsonb := CASE WHEN TG_OP = 'DELETE' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END;
  holder integer := (target ->> 'is_of__actor')::integer;
  fleet integer;
  dev integer;
  kind text := 'provisioning';
BEGIN
  SELECT "id" INTO fleet FROM "application" WHERE "actor" = holder;
  IF fleet IS NULL THEN
    SELECT "id", "belongs_to__application" INTO dev, fleet FROM "device" WHERE "actor" = holder;
    kind := 'device';
  END IF;
  IF fleet IS NULL THEN RETURN NULL; END IF;
  PERFORM flotilla_emit_event(
    CASE TG_OP WHEN 'INSERT' THEN 'key.created' ELSE 'key.revoked' END,
    flotilla_device_fleet_org(fleet), fleet, dev,
    jsonb_build_object('key', (target ->> 'id')::integer, 'name', target ->> 'name',
      'kind', kind, 'fleet', fleet, 'device', dev));
  RETURN NULL;
END $$;
CREATE TRIGGER "api_key_events" AFTER INSERT OR DELETE ON "api_key"
  FOR EACH ROW EXECUTE FUNCTION flotilla_key_events();

-- ---------------------------------------------------------------------------------------------
-- Webhooks
-- ---------------------------------------------------------------------------------------------

CREATE TABLE "webhook_endpoint" (
  "id" integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "organization" integer NOT NULL REFERENCES "organization" ON DELETE CASCADE,
  -- A fleet's endpoint hears only that fleet's events; NULL: the whole organization's.
  "application" integer REFERENCES "application" ON DELETE CASCADE,
  "url" text NOT NULL,
  "description" text NOT NULL DEFAULT '',
  "events" text[] NOT NULL,
  -- The HMAC key deliveries are signed with; the API shows it once, when the endpoint is created.
  "secret" text NOT NULL,
  "is_enabled" boolean NOT NULL DEFAULT true,
  "disabled_at" timestamptz,
  "disabled_reason" text
);
CREATE INDEX "webhook_endpoint_organization_idx" ON "webhook_endpoint" ("organization");
CREATE INDEX "webhook_endpoint_application_idx" ON "webhook_endpoint" ("application");

CREATE TABLE "webhook_delivery" (
  "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- The receiver's idempotency key: the same on every attempt and on a redelivery.
  "delivery_uuid" text NOT NULL DEFAULT flotilla_random_uuid(),
  "endpoint" integer NOT NULL REFERENCES "webhook_endpoint" ON DELETE CASCADE,
  "event" bigint NOT NULL REFERENCES "event_outbox" ON DELETE CASCADE,
  -- Deliveries with the same key (a device's events) go out one after the other, in event order.
  "ordering_key" integer,
  "status" text NOT NULL DEFAULT 'pending',
  "attempts" integer NOT NULL DEFAULT 0,
  "created_at" timestamptz NOT NULL,
  -- When a pending delivery is due; for one being delivered, when its claim lapses.
  "next_attempt_at" timestamptz NOT NULL,
  "last_attempt_at" timestamptz,
  "delivered_at" timestamptz,
  "response_status" integer,
  "response_body" text,
  "last_error" text,
  CONSTRAINT "webhook_delivery_status_check" CHECK ("status" IN ('pending', 'delivering', 'succeeded', 'failed')),
  CONSTRAINT "webhook_delivery_delivery_uuid_key" UNIQUE ("delivery_uuid"),
  CONSTRAINT "webhook_delivery_endpoint_event_key" UNIQUE ("endpoint", "event")
);
CREATE INDEX "webhook_delivery_due_idx" ON "webhook_delivery" ("next_attempt_at")
  WHERE "status" IN ('pending', 'delivering');
CREATE INDEX "webhook_delivery_order_idx" ON "webhook_delivery" ("endpoint", "ordering_key", "event")
  WHERE "status" IN ('pending', 'delivering');
CREATE INDEX "webhook_delivery_endpoint_idx" ON "webhook_delivery" ("endpoint", "id");
CREATE INDEX "webhook_delivery_event_idx" ON "webhook_delivery" ("event");
