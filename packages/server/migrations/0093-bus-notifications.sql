-- The notifications triggers send (cache invalidations, wake-ups) on the process's message bus.
-- By default they stay PostgreSQL NOTIFYs, exactly as before. A connection of a process whose bus
-- is NATS (FLOTILLA_NATS_URL) says so with the session setting flotilla.bus = 'nats'
-- (infra/db/database.ts sets it): its triggers then record each notification as a NOTICE
-- 'flotilla_bus' (DETAIL: the channel, HINT: the payload), which reaches that connection only, and
-- the process publishes what a transaction recorded on NATS once it has committed, so nothing on
-- the write path takes NOTIFY's commit-time lock. A write from anywhere else (psql, a migration)
-- still sends its NOTIFY.

CREATE FUNCTION flotilla_bus_notify(channel text, payload text) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('flotilla.bus', true) = 'nats' THEN
    RAISE NOTICE 'flotilla_bus' USING DETAIL = channel, HINT = payload;
  ELSE
    PERFORM pg_notify(channel, payload);
  END IF;
END $$;

-- 0007: auth cache invalidations (the NOTICE to the writing connection itself is kept).
CREATE OR REPLACE FUNCTION flotilla_auth_changed(subject text) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM flotilla_bus_notify('flotilla_auth', subject);
  RAISE NOTICE 'flotilla_auth_changed' USING DETAIL = subject;
END $$;

-- 0008: target-state ETags.
CREATE OR REPLACE FUNCTION flotilla_notify_target(kind text, id integer) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  IF id IS NOT NULL THEN
    PERFORM flotilla_bus_notify('target_state', kind || ':' || id);
  END IF;
END $$;

CREATE OR REPLACE FUNCTION flotilla_target_changed_everything() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM flotilla_bus_notify('target_state', '*');
  RETURN NULL;
END $$;

-- 0031 (called by 0079's device and install triggers): the state-report cache, the busiest of
-- them (one per device whose reported state changed). The setting is tested inline rather than
-- through flotilla_bus_notify, to add no function call to the state-report path.
CREATE OR REPLACE FUNCTION flotilla_notify_state_report(kind text, id integer) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  IF id IS NOT NULL THEN
    IF current_setting('flotilla.bus', true) = 'nats' THEN
      RAISE NOTICE 'flotilla_bus' USING DETAIL = 'state_report', HINT = kind || ':' || id;
    ELSE
      PERFORM pg_notify('state_report', kind || ':' || id);
    END IF;
  END IF;
END $$;

-- 0013: the mail queue's wake-up.
CREATE OR REPLACE FUNCTION flotilla_mail_queued() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM flotilla_bus_notify('flotilla_mail', NEW."id"::text);
  RETURN NULL;
END $$;

-- 0030: repositories of deleted fleets to remove.
CREATE OR REPLACE FUNCTION flotilla_fleet_repository_removal() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "fleet_repository_removal" ("fleet_uuid")
    SELECT "uuid" FROM "deleted_fleets" ON CONFLICT DO NOTHING;
  IF FOUND THEN
    PERFORM flotilla_bus_notify('flotilla_fleet_repository', '');
  END IF;
  RETURN NULL;
END $$;

-- 0062: the event outbox's wake-up (one per statement; identical ones of a transaction fold).
CREATE OR REPLACE FUNCTION flotilla_notify_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM flotilla_bus_notify('flotilla_events', '');
  RETURN NULL;
END $$;
