-- Per-fleet device counts by status, kept by PostgreSQL itself so that counting a fleet's devices
-- in one overall_status reads a few dozen rows instead of every device of the fleet
-- (model/definitions/device-status-count.ts reads them; docs/ARCHITECTURE.md "Device status
-- counts").
--
-- Each row counts the devices of one fleet with one tally key:
--   base               overall_status_base (0010);
--   poll_interval_ms   the device's poll interval, for the bases the heartbeat decides (0 else);
--   bin                the minute (aligned to the epoch) its timeout_until falls in, for those
--                      bases ('-infinity' else).
-- The heartbeat changes with time, not with writes: the reader compares each row's bin with now().
-- A row whose devices are all online, all timing out or all offline at now() counts as such; the
-- few rows where now() falls inside the range of their devices' deadlines are counted device by
-- device (device_status_idx). A contact moves a device to another bin (statement-level triggers
-- over the transition tables: one upsert per key a statement touches, so a batch of contacts costs
-- one small statement, not one per device).
--
-- Rows whose devices are offline for good (bin + 1 min <= now()) are merged by
-- flotilla_compact_device_status_tally() into one row per fleet and base (bin '-infinity',
-- poll_interval_ms 0): when such a device later moves, the trigger takes it from its original key,
-- which leaves a negative row there; every such row reads as offline, so the sums stay exact, and
-- the next compaction merges it again. Rows that reach 0 are deleted by the compaction too.
CREATE TABLE "device_status_tally" (
  "application" integer NOT NULL,
  "base" text NOT NULL,
  "poll_interval_ms" integer NOT NULL,
  "bin" timestamptz NOT NULL,
  "n" integer NOT NULL,
  PRIMARY KEY ("application", "base", "poll_interval_ms", "bin")
);

-- The key parts of a device row (immutable: the same row always has the same key).
CREATE FUNCTION flotilla_tally_poll_interval(base text, poll_interval_ms integer) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN base IN ('inactive', 'post-provisioning', 'unseen') THEN 0 ELSE poll_interval_ms END
$$;

CREATE FUNCTION flotilla_tally_bin(base text, timeout_until timestamptz) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN base IN ('inactive', 'post-provisioning', 'unseen') THEN '-infinity'::timestamptz
    ELSE date_bin('1 minute', timeout_until, '2000-01-01 00:00:00+00') END
$$;

-- The triggers add +1 for each new row and -1 for each old one (transition tables, which only the
-- trigger function itself can read), ordered by key so that concurrent statements lock the tally
-- rows they share in the same order.
CREATE FUNCTION flotilla_device_status_tally_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "device_status_tally" AS t ("application", "base", "poll_interval_ms", "bin", "n")
  SELECT r."belongs_to__application", r."overall_status_base",
         flotilla_tally_poll_interval(r."overall_status_base", r."poll_interval_ms"),
         flotilla_tally_bin(r."overall_status_base", r."timeout_until"), count(*)
    FROM "new_rows" r
   GROUP BY 1, 2, 3, 4
   ORDER BY 1, 2, 3, 4
  ON CONFLICT ("application", "base", "poll_interval_ms", "bin")
    DO UPDATE SET "n" = t."n" + EXCLUDED."n";
  RETURN NULL;
END $$;

-- Most updates of a device (a state report, a rename) leave its key alone, and an UPDATE that
-- matches no row still fires the trigger: those return at once.
CREATE FUNCTION flotilla_device_status_tally_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM "old_rows" o JOIN "new_rows" n ON n."id" = o."id"
     WHERE (o."belongs_to__application", o."overall_status_base", o."poll_interval_ms", o."timeout_until")
           IS DISTINCT FROM (n."belongs_to__application", n."overall_status_base", n."poll_interval_ms", n."timeout_until")
  ) THEN
    RETURN NULL;
  END IF;
  INSERT INTO "device_status_tally" AS t ("application", "base", "poll_interval_ms", "bin", "n")
  SELECT c."application", c."base", c."poll", c."bin", sum(c."delta")::integer
    FROM (
      SELECT r."belongs_to__application" AS "application", r."overall_status_base" AS "base",
             flotilla_tally_poll_interval(r."overall_status_base", r."poll_interval_ms") AS "poll",
             flotilla_tally_bin(r."overall_status_base", r."timeout_until") AS "bin", -1 AS "delta"
        FROM "old_rows" r
      UNION ALL
      SELECT r."belongs_to__application", r."overall_status_base",
             flotilla_tally_poll_interval(r."overall_status_base", r."poll_interval_ms"),
             flotilla_tally_bin(r."overall_status_base", r."timeout_until"), 1
        FROM "new_rows" r
    ) c
   GROUP BY 1, 2, 3, 4
  HAVING sum(c."delta") <> 0
   ORDER BY 1, 2, 3, 4
  ON CONFLICT ("application", "base", "poll_interval_ms", "bin")
    DO UPDATE SET "n" = t."n" + EXCLUDED."n";
  RETURN NULL;
END $$;

CREATE FUNCTION flotilla_device_status_tally_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "device_status_tally" AS t ("application", "base", "poll_interval_ms", "bin", "n")
  SELECT r."belongs_to__application", r."overall_status_base",
         flotilla_tally_poll_interval(r."overall_status_base", r."poll_interval_ms"),
         flotilla_tally_bin(r."overall_status_base", r."timeout_until"), -count(*)
    FROM "old_rows" r
   GROUP BY 1, 2, 3, 4
   ORDER BY 1, 2, 3, 4
  ON CONFLICT ("application", "base", "poll_interval_ms", "bin")
    DO UPDATE SET "n" = t."n" + EXCLUDED."n";
  RETURN NULL;
END $$;

CREATE FUNCTION flotilla_device_status_tally_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "device_status_tally";
  RETURN NULL;
END $$;

CREATE TRIGGER "device_status_tally_insert" AFTER INSERT ON "device"
  REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_device_status_tally_insert();
CREATE TRIGGER "device_status_tally_update" AFTER UPDATE ON "device"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_device_status_tally_update();
CREATE TRIGGER "device_status_tally_delete" AFTER DELETE ON "device"
  REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_device_status_tally_delete();
CREATE TRIGGER "device_status_tally_truncate" AFTER TRUNCATE ON "device"
  FOR EACH STATEMENT EXECUTE FUNCTION flotilla_device_status_tally_truncate();

-- Merges the rows that are offline for good into one per fleet and base, and drops empty rows.
-- Run now and then by the server (features/heartbeat); one process at a time.
CREATE FUNCTION flotilla_compact_device_status_tally() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('flotilla_compact_device_status_tally')) THEN
    RETURN;
  END IF;
  WITH gone AS (
    DELETE FROM "device_status_tally" t
     WHERE (t."bin" + interval '1 minute' <= now()
            AND NOT (t."poll_interval_ms" = 0 AND t."bin" = '-infinity'))
        OR t."n" = 0
    RETURNING t.*
  )
  INSERT INTO "device_status_tally" AS t ("application", "base", "poll_interval_ms", "bin", "n")
  SELECT g."application", g."base", 0, '-infinity', sum(g."n")::integer
    FROM gone g
   WHERE g."bin" + interval '1 minute' <= now()
   GROUP BY 1, 2
  HAVING sum(g."n") <> 0
   ORDER BY 1, 2
  ON CONFLICT ("application", "base", "poll_interval_ms", "bin")
    DO UPDATE SET "n" = t."n" + EXCLUDED."n";
END $$;

INSERT INTO "device_status_tally" ("application", "base", "poll_interval_ms", "bin", "n")
SELECT d."belongs_to__application", d."overall_status_base",
       flotilla_tally_poll_interval(d."overall_status_base", d."poll_interval_ms"),
       flotilla_tally_bin(d."overall_status_base", d."timeout_until"), count(*)
  FROM "device" d
 GROUP BY 1, 2, 3, 4;

SELECT flotilla_compact_device_status_tally();
