import type {
  CheckResult,
  DiagnosticAction,
  DiagnosticRun,
} from '@flotilla/shared/diagnostics/diagnostics';
import type { Queryable } from '../../infra/db/database.js';
import { maxActionTimeoutMs } from '../cloudlink/cloudlink-options.js';

// Runs kept per device and action; older ones are deleted when a new one starts.
export const keptRunsPerAction = 5;

type RunRow = {
  id: string;
  action: DiagnosticAction;
  status: DiagnosticRun['status'];
  created_at: Date;
  finished_at: Date | null;
  diagnose_version: string | null;
  checks: CheckResult[] | null;
  stdout: string | null;
  error: string | null;
};

const columns = `"id"::text AS "id", "action", "status", "created_at", "finished_at",
  "diagnose_version", "checks", "stdout", "error"`;

// No action waits for a device longer than maxActionTimeoutMs (plus a second for a relay between
// processes), so a run still in progress well after that lost the process that ran it (a restart
// or a crash): it is shown as failed, with the reason, rather than in progress forever.
export const orphanedRunAfterMs = 2 * maxActionTimeoutMs;
export const orphanedRunError = 'The server stopped before the device answered; run it again';

const toRun = (row: RunRow, now: Date): DiagnosticRun => {
  const orphaned =
    row.status === 'in_progress' && now.getTime() - row.created_at.getTime() > orphanedRunAfterMs;
  return orphaned
    ? { ...presented(row), status: 'error', error: orphanedRunError }
    : presented(row);
};

const presented = (row: RunRow): DiagnosticRun => ({
  id: row.id,
  action: row.action,
  status: row.status,
  createdAt: row.created_at.toISOString(),
  lastRun: row.finished_at?.toISOString() ?? null,
  diagnose_version: row.diagnose_version,
  checks: row.checks,
  stdout: row.stdout,
  error: row.error,
});

export const startRun = async (
  db: Queryable,
  deviceId: number,
  action: DiagnosticAction,
  now: Date,
): Promise<DiagnosticRun> => {
  const { rows } = await db.query<RunRow>(
    `INSERT INTO "diagnostic_run" ("device", "action", "status", "created_at")
     VALUES ($1, $2, 'in_progress', $3) RETURNING ${columns}`,
    [deviceId, action, now],
  );
  const row = rows[0];
  if (!row) throw new Error('diagnostic run not inserted');
  await db.query(
    `DELETE FROM "diagnostic_run" WHERE "device" = $1 AND "action" = $2 AND "id" NOT IN (
       SELECT "id" FROM "diagnostic_run" WHERE "device" = $1 AND "action" = $2
        ORDER BY "id" DESC LIMIT $3)`,
    [deviceId, action, keptRunsPerAction],
  );
  return presented(row);
};

export type RunOutcome =
  | { status: 'done'; diagnoseVersion: string; checks: CheckResult[] | null; stdout: string | null }
  | { status: 'error'; error: string };

export const finishRun = async (
  db: Queryable,
  id: string,
  outcome: RunOutcome,
  now: Date,
): Promise<void> => {
  await db.query(
    `UPDATE "diagnostic_run" SET "status" = $2, "finished_at" = $3, "diagnose_version" = $4,
            "checks" = $5::jsonb, "stdout" = $6, "error" = $7
      WHERE "id" = $1::bigint`,
    outcome.status === 'done'
      ? [
          id,
          'done',
          now,
          outcome.diagnoseVersion,
          outcome.checks === null ? null : JSON.stringify(outcome.checks),
          outcome.stdout,
          null,
        ]
      : [id, 'error', now, null, null, null, outcome.error],
  );
};

// One run of the device by id, or its newest run of an action.
export const readRun = async (
  db: Queryable,
  deviceId: number,
  which: { id: string } | { latest: DiagnosticAction },
  now: Date,
): Promise<DiagnosticRun | undefined> => {
  const { rows } =
    'id' in which
      ? await db.query<RunRow>(
          `SELECT ${columns} FROM "diagnostic_run" WHERE "device" = $1 AND "id" = $2::bigint`,
          [deviceId, which.id],
        )
      : await db.query<RunRow>(
          `SELECT ${columns} FROM "diagnostic_run" WHERE "device" = $1 AND "action" = $2
            ORDER BY "id" DESC LIMIT 1`,
          [deviceId, which.latest],
        );
  const row = rows[0];
  return row ? toRun(row, now) : undefined;
};
