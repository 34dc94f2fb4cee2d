-- Alert rules on log lines, alert events in the outbox, and the order of the live event stream.

-- A rule may watch a device's log for a line containing a text (case-insensitive substring: no
-- regular expression, so no pattern can make the sweep backtrack), seen within its minutes.
ALTER TABLE "flotilla_alert_rule" DROP CONSTRAINT "flotilla_alert_rule_condition_check";
ALTER TABLE "flotilla_alert_rule" ADD CONSTRAINT "flotilla_alert_rule_condition_check"
  CHECK ("condition" IN ('device offline', 'metric above', 'update failed', 'log line'));
ALTER TABLE "flotilla_alert_rule" ADD COLUMN "pattern" text
  CHECK (char_length("pattern") BETWEEN 1 AND 200);
ALTER TABLE "flotilla_alert_rule" ADD CONSTRAINT "flotilla_alert_rule_pattern_condition_check"
  CHECK (("condition" = 'log line') = ("pattern" IS NOT NULL));

-- alert.fired and alert.resolved, in the sweep's transaction that fires or resolves the alert
-- (whatever writes it), stamped with the sweep's own time.
CREATE FUNCTION flotilla_alert_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rule record;
  dev record;
BEGIN
  IF TG_OP = 'UPDATE' AND NOT (OLD."status" = 'firing' AND NEW."status" = 'resolved') THEN
    RETURN NULL;
  END IF;
  SELECT "id", "name", "condition", "belongs_to__organization" AS "organization",
         "is_silenced_until__date" AS "silenced_until"
    INTO rule FROM "flotilla_alert_rule" WHERE "id" = NEW."is_raised_by__flotilla_alert_rule";
  SELECT "id", "uuid", "device_name", "belongs_to__application" AS "fleet"
    INTO dev FROM "device" WHERE "id" = NEW."device";
  IF rule."id" IS NULL OR dev."id" IS NULL THEN RETURN NULL; END IF;
  PERFORM flotilla_emit_event(
    CASE WHEN NEW."status" = 'firing' THEN 'alert.fired' ELSE 'alert.resolved' END,
    rule."organization", dev."fleet", dev."id",
    jsonb_build_object('alert', NEW."id", 'rule', rule."id", 'ruleName', rule."name",
      'condition', rule."condition", 'detail', NEW."detail",
      'silenced', coalesce(rule."silenced_until" > coalesce(NEW."resolved_at", NEW."started_at"), false),
      'device', dev."id", 'uuid', dev."uuid", 'deviceName', dev."device_name", 'fleet', dev."fleet",
      'startedAt', NEW."started_at", 'resolvedAt', NEW."resolved_at"),
    coalesce(NEW."resolved_at", NEW."started_at"));
  RETURN NULL;
END $$;
CREATE TRIGGER "flotilla_alert_events" AFTER INSERT OR UPDATE OF "status" ON "flotilla_alert"
  FOR EACH ROW EXECUTE FUNCTION flotilla_alert_events();

-- The live event stream (GET /events/v1/stream) reads events in the order their fan-out
-- committed: positions are taken under the fan-out's advisory lock, held to the commit, so a
-- client that saw position P has seen every committed position below it (outbox ids are taken
-- before commit and may become visible out of order).
CREATE SEQUENCE "event_stream_position_seq";
ALTER TABLE "event_outbox" ADD COLUMN "stream_position" bigint;
CREATE UNIQUE INDEX "event_outbox_stream_position_idx" ON "event_outbox" ("stream_position")
  WHERE "stream_position" IS NOT NULL;
