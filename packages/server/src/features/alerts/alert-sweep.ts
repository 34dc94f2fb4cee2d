import type { Database, Queryable } from '../../infra/db/database.js';
import { type DueAlert, queueAlertMail } from './alert-mail.js';
import { matchingDevices, type StoredRule } from './alert-conditions.js';

export type SweepOutcome = { fired: number; resolved: number; mails: number };

// Resolved alerts are kept this long for the devices' history, then deleted.
export const resolvedAlertRetentionDays = 30;

const ruleColumns = `r."id", r."belongs_to__organization" AS "organization",
  r."applies_to__application" AS "fleet", r."name", r."condition", r."metric", r."threshold", r."pattern",
  r."for_minutes" AS "forMinutes", r."repeat_interval_minutes" AS "repeatIntervalMinutes",
  r."is_silenced_until__date" AS "silencedUntil"`;

// Alerts of the rule to tell about now: new ones, firing ones whose reminder is due, and
// resolutions of alerts someone was told about.
const dueAlerts = async (tx: Queryable, rule: StoredRule, now: Date): Promise<DueAlert[]> => {
  const { rows } = await tx.query<DueAlert>(
    `SELECT al."id", al."status", al."detail", d."device_name" AS "deviceName", d."uuid"
       FROM "flotilla_alert" al JOIN "device" d ON d."id" = al."device"
      WHERE al."is_raised_by__flotilla_alert_rule" = $1
        AND ((al."status" = 'firing' AND (al."last_notified_at" IS NULL
               OR al."last_notified_at" <= $2::timestamptz - $3::int * interval '1 minute'))
          OR (al."status" = 'resolved' AND al."last_notified_at" < al."resolved_at"))
      ORDER BY al."status", d."device_name", al."id"`,
    [rule.id, now, rule.repeatIntervalMinutes],
  );
  return rows;
};

// One rule, in one transaction that holds its row (another process sweeping at the same time
// skips it): fire an alert for each device the condition holds for, resolve the others, and
// tell the organization's administrators what is due unless the rule is silenced.
const sweepRule = async (
  db: Database,
  ruleId: number,
  now: Date,
  publicUrl: string,
): Promise<SweepOutcome> =>
  db.transaction(async (tx) => {
    const { rows } = await tx.query<StoredRule>(
      `SELECT ${ruleColumns} FROM "flotilla_alert_rule" r
        WHERE r."id" = $1 AND r."is_enabled" FOR UPDATE SKIP LOCKED`,
      [ruleId],
    );
    const rule = rows[0];
    if (!rule) return { fired: 0, resolved: 0, mails: 0 };
    const query = matchingDevices(rule, now);
    const matches = query
      ? (await tx.query<{ device: number; detail: string }>(query.text, query.values)).rows
      : [];
    const fired = await tx.query(
      `INSERT INTO "flotilla_alert"
              ("is_raised_by__flotilla_alert_rule", "device", "status", "started_at", "detail")
       SELECT $1, m."device", 'firing', $2, m."detail"
         FROM unnest($3::int[], $4::text[]) AS m("device", "detail")
       ON CONFLICT ("is_raised_by__flotilla_alert_rule", "device") WHERE "status" = 'firing'
       DO NOTHING`,
      [rule.id, now, matches.map((m) => m.device), matches.map((m) => m.detail)],
    );
    const resolved = await tx.query(
      `UPDATE "flotilla_alert" SET "status" = 'resolved', "resolved_at" = $2
        WHERE "is_raised_by__flotilla_alert_rule" = $1 AND "status" = 'firing'
          AND NOT ("device" = ANY($3::int[]))`,
      [rule.id, now, matches.map((m) => m.device)],
    );
    const due = await dueAlerts(tx, rule, now);
    const silenced = rule.silencedUntil !== null && rule.silencedUntil > now;
    // While silenced nobody is told; what resolves meanwhile is not told later either, but what
    // still fires when the silence ends is.
    const told = silenced ? due.filter((alert) => alert.status === 'resolved') : due;
    const mails = silenced ? 0 : await queueAlertMail(tx, rule, due, publicUrl);
    if (told.length > 0) {
      await tx.query(`UPDATE "flotilla_alert" SET "last_notified_at" = $2 WHERE "id" = ANY($1)`, [
        told.map((alert) => alert.id),
        now,
      ]);
    }
    return { fired: fired.rowCount, resolved: resolved.rowCount, mails };
  });

// Every enabled rule, one after the other; a disabled rule's firing alerts resolve quietly, and
// resolved alerts past their retention go.
export const sweepAlerts = async (
  db: Database,
  now: Date,
  publicUrl: string,
): Promise<SweepOutcome> => {
  const total: SweepOutcome = { fired: 0, resolved: 0, mails: 0 };
  const quiet = await db.query(
    `UPDATE "flotilla_alert" al
        SET "status" = 'resolved', "resolved_at" = $1, "last_notified_at" = $1
       FROM "flotilla_alert_rule" r
      WHERE r."id" = al."is_raised_by__flotilla_alert_rule" AND al."status" = 'firing'
        AND NOT r."is_enabled"`,
    [now],
  );
  total.resolved += quiet.rowCount;
  await db.query(
    `DELETE FROM "flotilla_alert"
      WHERE "status" = 'resolved' AND "resolved_at" < $1::timestamptz - $2::int * interval '1 day'`,
    [now, resolvedAlertRetentionDays],
  );
  const { rows } = await db.query<{ id: number }>(
    'SELECT "id" FROM "flotilla_alert_rule" WHERE "is_enabled" ORDER BY "id"',
  );
  for (const { id } of rows) {
    const outcome = await sweepRule(db, id, now, publicUrl);
    total.fired += outcome.fired;
    total.resolved += outcome.resolved;
    total.mails += outcome.mails;
  }
  return total;
};
