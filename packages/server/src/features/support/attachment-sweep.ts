import { rm } from 'node:fs/promises';
import type { Queryable } from '../../infra/db/database.js';
import { attachmentPath, isFileUuid } from './attachment-files.js';

export const attachmentSweepIntervalMs = 3_600_000;
// An upload no ticket or reply took within a day was abandoned (a form closed unsent).
export const abandonedUploadMs = 24 * 3_600_000;

// Removes uploads no message holds that are older than `cutoff`: their rows, then their files.
export const sweepAbandonedUploads = async (
  db: Queryable,
  dataDir: string,
  cutoff: Date,
): Promise<number> => {
  const { rows } = await db.query<{ file_uuid: string }>(
    `DELETE FROM "support_attachment" WHERE "message" IS NULL AND "created_at" < $1
     RETURNING "file_uuid"`,
    [cutoff],
  );
  for (const row of rows) {
    if (isFileUuid(row.file_uuid)) {
      await rm(attachmentPath(dataDir, row.file_uuid), { force: true });
    }
  }
  return rows.length;
};
