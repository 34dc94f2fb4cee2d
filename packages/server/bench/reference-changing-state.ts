import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { createBatcher } from './reference-batcher.js';

// The reference for changing state reports (and the rollout burst): what a minimal server writes
// for a report that changes stored fields, batched over devices in one statement with the
// contact time: the device columns (status, update_status, download_progress, ip_address, the
// running release found by its commit) and the image installs of the reported services (found
// by release commit and service name), inserted or updated where they differ, the device's other
// installs deleted. Reports are trusted (no auth, no validation).

type Install = { commit: string; service: string; status: string | null; progress: number | null };

type Reported = {
  uuid: string;
  status: string | null;
  updateStatus: string | null;
  downloadProgress: number | null;
  ipAddress: string | null;
  running: string | null;
  installs: Install[];
};

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? { ...value } : {};
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const whole = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : null;

const parse = (uuid: string, report: unknown): Reported => {
  const fields = record(report);
  const installs: Install[] = [];
  let running: string | null = null;
  for (const app of Object.values(record(fields.apps))) {
    const appFields = record(app);
    running = text(appFields.release_uuid) ?? running;
    for (const [commit, release] of Object.entries(record(appFields.releases))) {
      for (const [service, state] of Object.entries(record(record(release).services))) {
        const serviceFields = record(state);
        installs.push({
          commit,
          service,
          status: text(serviceFields.status),
          progress: whole(serviceFields.download_progress),
        });
      }
    }
  }
  return {
    uuid,
    status: text(fields.status),
    updateStatus: text(fields.update_status),
    downloadProgress: whole(fields.download_progress),
    ipAddress: text(fields.ip_address),
    running,
    installs,
  };
};

const writeSql = `
  WITH u AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[])
      AS u("uuid", "status", "update_status", "download_progress", "ip_address", "running")
  ), devices AS (
    UPDATE "device" d SET
      "status" = coalesce(u."status", d."status"),
      "update_status" = coalesce(u."update_status", d."update_status"),
      "download_progress" = u."download_progress",
      "ip_address" = coalesce(u."ip_address", d."ip_address"),
      "is_running__release" = coalesce(
        (SELECT r."id" FROM "release" r
          WHERE r."belongs_to__application" = d."belongs_to__application" AND r."commit" = u."running"),
        d."is_running__release"),
      "last_contact_at" = now()
    FROM u WHERE d."uuid" = u."uuid"
    RETURNING d."id"
  ), i AS (
    SELECT * FROM unnest($7::text[], $8::text[], $9::text[], $10::text[], $11::int[])
      WITH ORDINALITY AS i("uuid", "commit", "service", "status", "progress", "n")
  ), resolved AS (
    SELECT DISTINCT ON (d."id", img."id") d."id" AS "device", img."id" AS "image",
           r."id" AS "release", i."status", i."progress"
      FROM i
      JOIN "device" d ON d."uuid" = i."uuid"
      JOIN "release" r ON r."belongs_to__application" = d."belongs_to__application" AND r."commit" = i."commit"
      JOIN "release_image" ri ON ri."is_part_of__release" = r."id"
      JOIN "image" img ON img."id" = ri."image"
      JOIN "service" s ON s."id" = img."is_a_build_of__service" AND s."service_name" = i."service"
     ORDER BY d."id", img."id", i."n" DESC
  ), upserted AS (
    INSERT INTO "image_install" AS ii
           ("device", "installs__image", "status", "download_progress", "is_provided_by__release", "install_date")
    SELECT "device", "image", coalesce("status", 'Unknown'), "progress", "release", now() FROM resolved
    ON CONFLICT ("device", "installs__image") DO UPDATE SET
      "status" = EXCLUDED."status", "download_progress" = EXCLUDED."download_progress",
      "is_provided_by__release" = EXCLUDED."is_provided_by__release"
     WHERE (ii."status", ii."download_progress", ii."is_provided_by__release")
           IS DISTINCT FROM (EXCLUDED."status", EXCLUDED."download_progress", EXCLUDED."is_provided_by__release")
  )
  DELETE FROM "image_install" ii
   WHERE ii."device" IN (SELECT "device" FROM resolved)
     AND NOT EXISTS (SELECT 1 FROM resolved x WHERE x."device" = ii."device" AND x."image" = ii."installs__image")`;

export const registerReferenceChangingState = (app: FastifyInstance, pool: pg.Pool): void => {
  const batcher = createBatcher<Reported>(
    async (items) => {
      const installs = items.flatMap((item) =>
        item.installs.map((install) => ({ uuid: item.uuid, ...install })),
      );
      await pool.query(writeSql, [
        items.map((item) => item.uuid),
        items.map((item) => item.status),
        items.map((item) => item.updateStatus),
        items.map((item) => item.downloadProgress),
        items.map((item) => item.ipAddress),
        items.map((item) => item.running),
        installs.map((install) => install.uuid),
        installs.map((install) => install.commit),
        installs.map((install) => install.service),
        installs.map((install) => install.status),
        installs.map((install) => install.progress),
      ]);
    },
    4,
    1000,
  );

  app.patch('/ref/state-changing', async (request, reply) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null) return reply.status(400).send();
    await Promise.all(
      Object.entries(body).map(([uuid, report]: [string, unknown]) =>
        batcher.add(parse(uuid, report)),
      ),
    );
    return reply.status(200).send();
  });
};
