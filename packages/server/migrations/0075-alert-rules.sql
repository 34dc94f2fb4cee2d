-- Alert rules: an organization's administrators say what should raise an alert on its devices
-- (every fleet of the organization, or one): a device offline for some minutes, a metric above a
-- threshold for some minutes, an update that failed. The alert sweep (features/alerts) raises one
-- alert per rule and device while the condition holds and resolves it when it no longer does;
-- notifications go to the organization's administrators by mail, grouped per rule and sweep.
CREATE TABLE "flotilla_alert_rule" (
  "id" serial PRIMARY KEY,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "modified_at" timestamptz NOT NULL DEFAULT now(),
  "belongs_to__organization" integer NOT NULL REFERENCES "organization" ("id") ON DELETE CASCADE,
  -- One fleet of the organization, or NULL for all of them.
  "applies_to__application" integer REFERENCES "application" ("id") ON DELETE CASCADE,
  "name" text NOT NULL,
  "condition" text NOT NULL
    CHECK ("condition" IN ('device offline', 'metric above', 'update failed')),
  "metric" text
    CHECK ("metric" IN ('cpu usage', 'cpu temperature', 'memory usage', 'storage usage')),
  -- Percent for usage, degrees Celsius for temperature.
  "threshold" integer CHECK ("threshold" BETWEEN 0 AND 1000),
  -- How long the condition must hold before the alert fires (offline and metric rules).
  "for_minutes" integer NOT NULL DEFAULT 5 CHECK ("for_minutes" BETWEEN 1 AND 10080),
  -- A firing alert is notified again after this long (a reminder), until it resolves.
  "repeat_interval_minutes" integer NOT NULL DEFAULT 240
    CHECK ("repeat_interval_minutes" BETWEEN 5 AND 10080),
  "is_enabled" boolean NOT NULL DEFAULT true,
  -- Until then, alerts still fire and resolve but nobody is notified.
  "is_silenced_until__date" timestamptz,
  CHECK (("condition" = 'metric above') = ("metric" IS NOT NULL AND "threshold" IS NOT NULL))
);
CREATE INDEX "flotilla_alert_rule_organization_idx"
  ON "flotilla_alert_rule" ("belongs_to__organization");
CREATE INDEX "flotilla_alert_rule_application_idx"
  ON "flotilla_alert_rule" ("applies_to__application");

CREATE TABLE "flotilla_alert" (
  "id" serial PRIMARY KEY,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "is_raised_by__flotilla_alert_rule" integer NOT NULL
    REFERENCES "flotilla_alert_rule" ("id") ON DELETE CASCADE,
  "device" integer NOT NULL REFERENCES "device" ("id") ON DELETE CASCADE,
  "status" text NOT NULL CHECK ("status" IN ('firing', 'resolved')),
  "started_at" timestamptz NOT NULL,
  "resolved_at" timestamptz,
  "last_notified_at" timestamptz,
  -- What the sweep saw, for people ("Offline since 10:02", "CPU usage 97 % for 5 minutes").
  "detail" text NOT NULL
);
-- One firing alert per rule and device.
CREATE UNIQUE INDEX "flotilla_alert_firing_idx"
  ON "flotilla_alert" ("is_raised_by__flotilla_alert_rule", "device") WHERE "status" = 'firing';
CREATE INDEX "flotilla_alert_device_idx" ON "flotilla_alert" ("device", "started_at" DESC);
