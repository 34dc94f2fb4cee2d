import { access, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { createOrganization } from '../../test-support/fixtures.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { attachmentDirectory, attachmentPath } from './attachment-files.js';
import { sweepAbandonedUploads } from './attachment-sweep.js';

// Uploads no ticket took are removed after a day, rows and files; attached ones stay.

let db: Database;
let dataDir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-support-sweep-'));
});
afterAll(async () => {
  await db.close();
});

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

it('removes abandoned uploads older than the cutoff only', async () => {
  const organization = await createOrganization(db, 'sweepco');
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "support_ticket" ("organization", "requester_name", "subject")
     VALUES ($1, 'x', 'kept') RETURNING "id"`,
    [organization],
  );
  const message = await db.query<{ id: number }>(
    `INSERT INTO "support_ticket_message" ("ticket", "author_name", "is_from_agent", "body")
     VALUES ($1, 'x', false, 'hi') RETURNING "id"`,
    [rows[0]?.id ?? 0],
  );
  const files = { old: 'a'.repeat(32), fresh: 'b'.repeat(32), attached: 'c'.repeat(32) };
  await mkdir(attachmentDirectory(dataDir), { recursive: true });
  for (const uuid of Object.values(files)) await writeFile(attachmentPath(dataDir, uuid), 'x');
  const insert = (uuid: string, createdAt: string, messageId: number | null) =>
    db.query(
      `INSERT INTO "support_attachment" ("token", "organization", "file_uuid", "file_name",
         "content_type", "size", "created_at", "message")
       VALUES ($1, $2, $1, 'f.txt', 'text/plain', 1, $3, $4)`,
      [uuid, organization, createdAt, messageId],
    );
  await insert(files.old, '2026-01-01T00:00:00Z', null);
  await insert(files.fresh, '2026-01-03T00:00:00Z', null);
  await insert(files.attached, '2026-01-01T00:00:00Z', message.rows[0]?.id ?? null);

  expect(await sweepAbandonedUploads(db, dataDir, new Date('2026-01-02T00:00:00Z'))).toBe(1);
  expect(await exists(attachmentPath(dataDir, files.old))).toBe(false);
  expect(await exists(attachmentPath(dataDir, files.fresh))).toBe(true);
  expect(await exists(attachmentPath(dataDir, files.attached))).toBe(true);
  const left = await db.query<{ file_uuid: string }>(
    'SELECT "file_uuid" FROM "support_attachment" ORDER BY "file_uuid"',
  );
  expect(left.rows.map((row) => row.file_uuid)).toEqual([files.fresh, files.attached].sort());
});
