import { apiKeyPrefix, generateApiKey, hashApiKey } from '../src/infra/auth/api-key-tokens.js';
import type { Queryable, SqlValue } from '../src/infra/db/database.js';
import type { BenchDevice } from './protocol-devices.js';

// The rollout burst's fleet: `count` devices of one new fleet (organization 1), each running the
// fleet's first release (two services, as the seeded fleets) and holding a device key. Each
// rollout adds a release with new images and makes it the fleet's target.

export type RolloutTarget = { commit: string; images: Record<string, string> };
export type RolloutFleet = { id: number; uuid: string; devices: BenchDevice[] };

const one = async <T extends object>(sql: Queryable, text: string, params: SqlValue[]) => {
  const { rows } = await sql.query<T>(text, params);
  const row = rows[0];
  if (!row) throw new Error(`nothing returned: ${text.slice(0, 80)}`);
  return row;
};

// A release of the fleet with a new image per service, made the fleet's target.
export const addRolloutRelease = async (
  sql: Queryable,
  fleetId: number,
  tag: string,
): Promise<RolloutTarget> => {
  const release = await one<{ id: number; commit: string }>(
    sql,
    `INSERT INTO "release" ("belongs_to__application", "commit", "status", "source", "semver")
     VALUES ($1, md5($2), 'success', 'cloud', '3.0.0-' || $3) RETURNING "id", "commit"`,
    [fleetId, `rollout ${fleetId} ${tag}`, tag],
  );
  const { rows } = await sql.query<{ name: string; image: string }>(
    `WITH images AS (
       INSERT INTO "image" ("is_a_build_of__service", "is_stored_at__image_location", "content_hash",
                            "status", "image_size", "project_type")
       SELECT s."id", 'registry.flotilla.local/v2/' || md5($2 || s."id"),
              'sha256:' || md5('content' || $2 || s."id") || md5('hash' || $2 || s."id"), 'success',
              80000000, 'dockerfile'
         FROM "service" s WHERE s."application" = $1
       RETURNING "id", "is_a_build_of__service", "is_stored_at__image_location", "content_hash"
     ), linked AS (
       INSERT INTO "release_image" ("image", "is_part_of__release") SELECT "id", $3 FROM images
     )
     SELECT s."service_name" AS "name", i."is_stored_at__image_location" || '@' || i."content_hash" AS "image"
       FROM images i JOIN "service" s ON s."id" = i."is_a_build_of__service"`,
    [fleetId, `${tag}-${release.id}`, release.id],
  );
  await sql.query(
    `UPDATE "release" SET "composition" = (SELECT "composition" FROM "release" WHERE "id" = 1)
      WHERE "id" = $1`,
    [release.id],
  );
  await sql.query('UPDATE "application" SET "should_be_running__release" = $2 WHERE "id" = $1', [
    fleetId,
    release.id,
  ]);
  return { commit: release.commit, images: Object.fromEntries(rows.map((r) => [r.name, r.image])) };
};

export const createRolloutFleet = async (sql: Queryable, count: number): Promise<RolloutFleet> => {
  const fleet = await one<{ id: number; uuid: string }>(
    sql,
    `INSERT INTO "application" ("organization", "app_name", "slug", "is_for__device_type", "uuid")
     SELECT 1, 'rollout-burst', 'bench-org-1/rollout-burst', a."is_for__device_type", md5('rollout-burst')
       FROM "application" a WHERE a."id" = 1
     RETURNING "id", "uuid"`,
    [],
  );
  await sql.query(
    `INSERT INTO "service" ("application", "service_name")
     SELECT $1, s FROM unnest(ARRAY['main', 'proxy']) s`,
    [fleet.id],
  );
  const first = await addRolloutRelease(sql, fleet.id, 'first');
  const { rows } = await sql.query<{ id: number; uuid: string; actor: number }>(
    `INSERT INTO "device" ("uuid", "device_name", "is_of__device_type", "belongs_to__application",
                           "is_running__release", "last_contact_at", "poll_interval_ms",
                           "os_version", "os_variant", "supervisor_version", "status")
     SELECT md5('rollout-device' || g), 'rollout-' || g, a."is_for__device_type", a."id",
            a."should_be_running__release", now(), 600000, 'balenaOS 5.3.21', 'prod', '16.4.6', 'Idle'
       FROM generate_series(1, $2::int) g JOIN "application" a ON a."id" = $1
     RETURNING "id", "uuid", "actor"`,
    [fleet.id, count],
  );
  const devices: BenchDevice[] = rows.map((row) => ({
    id: row.id,
    uuid: row.uuid,
    key: generateApiKey(),
    fleetUuid: fleet.uuid,
    commit: first.commit,
    images: first.images,
  }));
  await sql.query(
    `INSERT INTO "api_key" ("is_of__actor", "key_hash", "key_prefix", "name")
     SELECT k."actor", k."hash", k."prefix", 'bench rollout key'
       FROM unnest($1::int[], $2::text[], $3::text[]) AS k("actor", "hash", "prefix")`,
    [
      rows.map((row) => row.actor),
      devices.map((device) => hashApiKey(device.key)),
      devices.map((device) => apiKeyPrefix(device.key)),
    ],
  );
  await sql.query('ANALYZE "device"; ANALYZE "api_key"; ANALYZE "image_install"');
  return { id: fleet.id, uuid: fleet.uuid, devices };
};
