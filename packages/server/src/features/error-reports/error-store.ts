import { createHash } from 'node:crypto';
import { type ErrorReport, errorReportLimits } from '@flotilla/shared/error-reports/error-reports';
import type { Queryable } from '../../infra/db/database.js';
import { scrub } from './error-scrub.js';

// The table holds at most this many grouped errors; the least recently seen go first.
export const maxStoredErrors = 1_000;

export type ErrorOccurrence = {
  source: ErrorReport['source'];
  name: string;
  message: string;
  stack: string;
  location: string;
  release: string;
  requestId: string | null;
};

// Errors group by source, name, message with its numbers blanked, and the first stack frame:
// the same fault with another id counts as one.
const fingerprintOf = (occurrence: ErrorOccurrence): string => {
  const firstFrame = occurrence.stack.split('\n').find((line) => /^\s*at\s/.test(line)) ?? '';
  return createHash('sha256')
    .update(
      [
        occurrence.source,
        occurrence.name,
        occurrence.message.replace(/\d+/g, '#'),
        firstFrame.replace(/:\d+:\d+/g, '').trim(),
      ].join('\n'),
    )
    .digest('hex');
};

// An occurrence as kept and forwarded: scrubbed of secrets and bounded in size.
export const cleanOccurrence = (raw: ErrorOccurrence): ErrorOccurrence => ({
  source: raw.source,
  name: scrub(raw.name, errorReportLimits.name),
  message: scrub(raw.message, errorReportLimits.message),
  stack: scrub(raw.stack, errorReportLimits.stack),
  location: scrub(raw.location, errorReportLimits.location),
  release: raw.release.slice(0, errorReportLimits.release),
  requestId: raw.requestId?.slice(0, errorReportLimits.requestId) ?? null,
});

// Counts one occurrence (cleaned first).
export const recordError = async (db: Queryable, raw: ErrorOccurrence, at: Date): Promise<void> => {
  const occurrence = cleanOccurrence(raw);
  const { rows } = await db.query<{ inserted: boolean }>(
    `INSERT INTO "error_report" ("source", "fingerprint", "name", "message", "stack", "location",
       "release", "last_request_id", "first_seen_at", "last_seen_at")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
     ON CONFLICT ("source", "fingerprint") DO UPDATE SET
       "count" = "error_report"."count" + 1,
       "last_seen_at" = GREATEST("error_report"."last_seen_at", EXCLUDED."last_seen_at"),
       "message" = EXCLUDED."message", "stack" = EXCLUDED."stack",
       "location" = EXCLUDED."location", "release" = EXCLUDED."release",
       "last_request_id" = coalesce(EXCLUDED."last_request_id", "error_report"."last_request_id")
     RETURNING (xmax = 0) AS "inserted"`,
    [
      occurrence.source,
      fingerprintOf(occurrence),
      occurrence.name,
      occurrence.message,
      occurrence.stack,
      occurrence.location,
      occurrence.release,
      occurrence.requestId,
      at,
    ],
  );
  if (rows[0]?.inserted) {
    await db.query(
      `DELETE FROM "error_report" WHERE "id" IN (
         SELECT "id" FROM "error_report" ORDER BY "last_seen_at" DESC, "id" DESC OFFSET $1)`,
      [maxStoredErrors],
    );
  }
};

type ReportRow = {
  id: number;
  source: ErrorReport['source'];
  name: string;
  message: string;
  stack: string;
  location: string;
  release: string;
  last_request_id: string | null;
  count: string;
  first_seen_at: Date;
  last_seen_at: Date;
};

export const listErrors = async (
  db: Queryable,
  source: ErrorReport['source'] | undefined,
): Promise<ErrorReport[]> => {
  const { rows } = await db.query<ReportRow>(
    `SELECT "id", "source", "name", "message", "stack", "location", "release", "last_request_id",
            "count"::text AS "count", "first_seen_at", "last_seen_at"
       FROM "error_report" WHERE $1::text IS NULL OR "source" = $1
      ORDER BY "last_seen_at" DESC, "id" DESC LIMIT 200`,
    [source ?? null],
  );
  return rows.map((row) => ({
    id: row.id,
    source: row.source,
    name: row.name,
    message: row.message,
    stack: row.stack,
    location: row.location,
    release: row.release,
    lastRequestId: row.last_request_id,
    count: Number(row.count),
    firstSeenAt: row.first_seen_at.toISOString(),
    lastSeenAt: row.last_seen_at.toISOString(),
  }));
};

export const deleteError = async (db: Queryable, id: number): Promise<boolean> => {
  const { rowCount } = await db.query(`DELETE FROM "error_report" WHERE "id" = $1`, [id]);
  return (rowCount ?? 0) > 0;
};
