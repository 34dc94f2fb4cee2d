import { createHash, randomBytes } from 'node:crypto';
import type { OfferedOsImage, OsImage } from '@flotilla/shared/host-os/os-image';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest } from '../../infra/errors/api-error.js';
import type { StoredImageFile } from './os-image-files.js';
import { listReleases } from './catalogue-store.js';

// The provisioning images of the catalogue's OS releases (host_os_image) and the one-time tickets
// their downloads go through (host_os_image_download).

const ticketLifetimeMs = 10 * 60 * 1000;

type ImageRow = {
  release: number;
  device_type: string;
  semver: string;
  variant: string;
  filename: string;
  size: string;
  sha256: string;
  source_url: string | null;
  created_at: string;
  file: string;
};

const imageColumns = `i."release", dt."slug" AS "device_type", r."semver", r."variant",
  i."filename", i."size"::text AS "size", i."sha256", i."source_url", i."file",
  to_char(i."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "created_at"`;

const imageJoins = `FROM "host_os_image" i
  JOIN "release" r ON r."id" = i."release"
  JOIN "application" a ON a."id" = r."belongs_to__application"
  JOIN "device_type" dt ON dt."id" = a."is_for__device_type"`;

const toImage = (row: ImageRow): OsImage => ({
  release: row.release,
  deviceType: row.device_type,
  version: row.semver,
  variant: row.variant,
  filename: row.filename,
  size: Number(row.size),
  sha256: row.sha256,
  sourceUrl: row.source_url,
  createdAt: row.created_at,
});

// The catalogue's OS release `id`, or the reason it cannot hold an image.
export const imageRelease = async (db: Queryable, id: number) => {
  const [release] = await listReleases(db, { id });
  if (release === undefined) return null;
  if (release.kind !== 'os') throw badRequest('Only host OS releases have provisioning images');
  return release;
};

export const listImages = async (db: Queryable): Promise<OsImage[]> => {
  const { rows } = await db.query<ImageRow>(
    `SELECT ${imageColumns} ${imageJoins} ORDER BY dt."slug", r."semver_major" DESC,
       r."semver_minor" DESC, r."semver_patch" DESC, r."variant"`,
  );
  return rows.map(toImage);
};

// What Add device offers for a device type: images of valid releases, newest first.
export const offeredImages = async (
  db: Queryable,
  deviceType: string,
): Promise<OfferedOsImage[]> => {
  const { rows } = await db.query<ImageRow>(
    `SELECT ${imageColumns} ${imageJoins}
      WHERE dt."slug" = $1 AND a."is_host" AND NOT r."is_invalidated"
      ORDER BY r."semver_major" DESC, r."semver_minor" DESC, r."semver_patch" DESC, r."variant"`,
    [deviceType],
  );
  return rows.map(({ release, semver, variant, filename, size }) => ({
    release,
    version: semver,
    variant,
    filename,
    size: Number(size),
  }));
};

export const offeredImage = async (db: Queryable, release: number) => {
  const { rows } = await db.query<ImageRow>(
    `SELECT ${imageColumns} ${imageJoins} WHERE i."release" = $1 AND a."is_host"
        AND NOT r."is_invalidated"`,
    [release],
  );
  return rows[0];
};

// Keeps `stored` as the release's image; answers the file it replaces, for the caller to remove.
export const saveImage = async (
  db: Queryable,
  release: number,
  stored: StoredImageFile,
  filename: string,
  sourceUrl: string | null,
): Promise<string | null> => {
  const previous = await db.query<{ file: string }>(
    `SELECT "file" FROM "host_os_image" WHERE "release" = $1 FOR UPDATE`,
    [release],
  );
  await db.query(
    `INSERT INTO "host_os_image" ("release", "file", "filename", "size", "sha256", "source_url")
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT ("release") DO UPDATE SET "file" = EXCLUDED."file",
       "filename" = EXCLUDED."filename", "size" = EXCLUDED."size", "sha256" = EXCLUDED."sha256",
       "source_url" = EXCLUDED."source_url", "created_at" = now()`,
    [release, stored.file, filename, stored.size, stored.sha256, sourceUrl],
  );
  return previous.rows[0]?.file ?? null;
};

export const deleteImage = async (db: Queryable, release: number): Promise<string | null> => {
  const { rows } = await db.query<{ file: string }>(
    `DELETE FROM "host_os_image" WHERE "release" = $1 RETURNING "file"`,
    [release],
  );
  return rows[0]?.file ?? null;
};

export const imageFileOf = async (db: Queryable, release: number): Promise<string | null> => {
  const { rows } = await db.query<{ file: string }>(
    `SELECT "file" FROM "host_os_image" WHERE "release" = $1`,
    [release],
  );
  return rows[0]?.file ?? null;
};

const ticketHash = (ticket: string): string => createHash('sha256').update(ticket).digest('hex');

export const createTicket = async (
  db: Queryable,
  release: number,
  config: unknown,
  now: Date,
): Promise<{ ticket: string; expiresAt: Date }> => {
  const ticket = randomBytes(24).toString('base64url');
  const expiresAt = new Date(now.getTime() + ticketLifetimeMs);
  await db.query(`DELETE FROM "host_os_image_download" WHERE "expires_at" <= $1`, [now]);
  await db.query(
    `INSERT INTO "host_os_image_download" ("ticket_hash", "release", "config", "expires_at")
     VALUES ($1, $2, $3, $4)`,
    [ticketHash(ticket), release, JSON.stringify(config), expiresAt],
  );
  return { ticket, expiresAt };
};

// A ticket is good once: taking it removes it.
export const takeTicket = async (db: Queryable, ticket: string, now: Date) => {
  const { rows } = await db.query<{ release: number; config: unknown; expires_at: Date }>(
    `DELETE FROM "host_os_image_download" WHERE "ticket_hash" = $1
     RETURNING "release", "config", "expires_at"`,
    [ticketHash(ticket)],
  );
  const row = rows[0];
  if (row === undefined || row.expires_at.getTime() <= now.getTime()) return null;
  return row;
};
