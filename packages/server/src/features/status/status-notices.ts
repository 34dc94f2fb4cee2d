import type { StatusNotice, StatusNoticeInput } from '@flotilla/shared/status/status';
import type { Queryable } from '../../infra/db/database.js';

type NoticeRow = {
  id: number;
  kind: StatusNotice['kind'];
  severity: StatusNotice['severity'];
  title: string;
  message: string;
  created_at: Date;
  resolved_at: Date | null;
};

const columns = `"id", "kind", "severity", "title", "message", "created_at", "resolved_at"`;

const noticeOf = (row: NoticeRow): StatusNotice => ({
  id: row.id,
  kind: row.kind,
  severity: row.severity,
  title: row.title,
  message: row.message,
  createdAt: row.created_at.toISOString(),
  resolvedAt: row.resolved_at?.toISOString() ?? null,
});

// The notices the status page shows: every open one, newest first (bounded: a page of them).
export const openNotices = async (db: Queryable): Promise<StatusNotice[]> => {
  const { rows } = await db.query<NoticeRow>(
    `SELECT ${columns} FROM "status_notice" WHERE "resolved_at" IS NULL
      ORDER BY "created_at" DESC, "id" DESC LIMIT 50`,
  );
  return rows.map(noticeOf);
};

// The Admin area's list: open ones and the latest resolved ones.
export const recentNotices = async (db: Queryable): Promise<StatusNotice[]> => {
  const { rows } = await db.query<NoticeRow>(
    `SELECT ${columns} FROM "status_notice"
      ORDER BY "resolved_at" IS NULL DESC, "created_at" DESC, "id" DESC LIMIT 100`,
  );
  return rows.map(noticeOf);
};

export const postNotice = async (
  db: Queryable,
  input: Required<StatusNoticeInput>,
  userId: number,
  at: Date,
): Promise<StatusNotice> => {
  const { rows } = await db.query<NoticeRow>(
    `INSERT INTO "status_notice" ("kind", "severity", "title", "message", "is_posted_by__user",
       "created_at") VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${columns}`,
    [input.kind, input.severity, input.title, input.message, userId, at],
  );
  const row = rows[0];
  if (!row) throw new Error('status_notice insert returned no row');
  return noticeOf(row);
};

// Resolves (or reopens) a notice; null when there is none with that id.
export const setNoticeResolved = async (
  db: Queryable,
  id: number,
  resolved: boolean,
  at: Date,
): Promise<StatusNotice | null> => {
  const { rows } = await db.query<NoticeRow>(
    `UPDATE "status_notice" SET "resolved_at" = $2 WHERE "id" = $1 RETURNING ${columns}`,
    [id, resolved ? at : null],
  );
  return rows[0] ? noticeOf(rows[0]) : null;
};

export const deleteNotice = async (db: Queryable, id: number): Promise<boolean> => {
  const { rowCount } = await db.query(`DELETE FROM "status_notice" WHERE "id" = $1`, [id]);
  return (rowCount ?? 0) > 0;
};
