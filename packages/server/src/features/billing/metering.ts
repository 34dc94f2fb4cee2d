import { featureSlugs, isSeatRole } from '@flotilla/shared/billing/catalogue';
import type { Queryable } from '../../infra/db/database.js';
import { effectiveSeatRole } from '../../model/definitions/organizations.js';
import { type Usage, peakOf } from './charges.js';

// What the organization uses now, from the database's own rows.
export const meterOrganization = async (db: Queryable, organization: number): Promise<Usage> => {
  const devices = await db.query<{ active: number; microservices: number; frozen: number }>(
    `SELECT count(*) FILTER (WHERE d."is_active" AND NOT d."is_frozen")::integer AS "active",
       count(*) FILTER (WHERE d."is_active" AND NOT d."is_frozen" AND t."supports_multicontainer")::integer AS "microservices",
       count(*) FILTER (WHERE d."is_frozen")::integer AS "frozen"
     FROM "device" d JOIN "application" a ON a."id" = d."belongs_to__application"
     JOIN "application_type" t ON t."id" = a."application_type"
     WHERE a."organization" = $1`,
    [organization],
  );
  const members = await db.query<{ role: string; n: number }>(
    `SELECT ${effectiveSeatRole('"m"')} AS "role", count(*)::integer AS "n"
     FROM "organization_membership" "m" WHERE "m"."is_member_of__organization" = $1 GROUP BY 1`,
    [organization],
  );
  const row = devices.rows[0];
  const usage: Usage = {
    [featureSlugs.device]: row?.active ?? 0,
    [featureSlugs.microservicesDevice]: row?.microservices ?? 0,
    'device:frozen': row?.frozen ?? 0,
  };
  for (const { role, n } of members.rows) {
    if (isSeatRole(role)) usage[`member:${role}`] = n;
  }
  return usage;
};

const dayOf = (date: Date): string => date.toISOString().slice(0, 10);

// Keeps the day's peak of each quantity.
export const recordUsageDay = async (
  db: Queryable,
  organization: number,
  now: Date,
  usage: Usage,
): Promise<void> => {
  await db.query(
    `INSERT INTO "billing_usage_day" ("organization", "day", "usage") VALUES ($1, $2, $3::jsonb)
     ON CONFLICT ("organization", "day") DO UPDATE SET "usage" = (
       SELECT jsonb_object_agg(k."key", greatest(
         coalesce(("billing_usage_day"."usage" ->> k."key")::integer, 0),
         coalesce((EXCLUDED."usage" ->> k."key")::integer, 0)))
       FROM (SELECT jsonb_object_keys("billing_usage_day"."usage") AS "key"
             UNION SELECT jsonb_object_keys(EXCLUDED."usage")) k)`,
    [organization, dayOf(now), JSON.stringify(usage)],
  );
};

export type UsageDay = { day: string; usage: Usage };

// The recorded days of [from, to).
export const usageDays = async (
  db: Queryable,
  organization: number,
  from: Date,
  to: Date,
): Promise<UsageDay[]> => {
  const { rows } = await db.query<{ day: string; usage: Usage }>(
    `SELECT to_char("day", 'YYYY-MM-DD') AS "day", "usage" FROM "billing_usage_day"
     WHERE "organization" = $1 AND "day" >= $2::date AND "day" <= $3::date
     ORDER BY "day"`,
    [organization, dayOf(from), dayOf(new Date(to.getTime() - 1))],
  );
  return rows;
};

export const periodPeak = async (
  db: Queryable,
  organization: number,
  from: Date,
  to: Date,
): Promise<Usage> => peakOf((await usageDays(db, organization, from, to)).map((d) => d.usage));
