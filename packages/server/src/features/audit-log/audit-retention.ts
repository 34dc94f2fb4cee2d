import type { Queryable } from '../../infra/db/database.js';

// How often records past FLOTILLA_AUDIT_LOG_RETENTION_DAYS are pruned.
export const auditPruneIntervalMs = 3_600_000;

// Deletes every record older than `cutoff`, `batch` rows per statement (oldest first, through the
// occurred_at index), so no single delete holds its locks long. Returns how many went.
export const pruneAuditLog = async (
  db: Queryable,
  cutoff: Date,
  batch: number,
): Promise<number> => {
  let deleted = 0;
  for (;;) {
    const { rowCount } = await db.query(
      `DELETE FROM "audit_log_entry" WHERE "id" IN (
         SELECT "id" FROM "audit_log_entry" WHERE "occurred_at" < $1 ORDER BY "occurred_at" LIMIT $2)`,
      [cutoff, batch],
    );
    deleted += rowCount;
    if (rowCount < batch) return deleted;
  }
};
