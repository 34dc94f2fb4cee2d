import { apiKeyPrefix, generateApiKey, hashApiKey } from '../src/infra/auth/api-key-tokens.js';
import type { Queryable } from '../src/infra/db/database.js';

// A seeded device with a device API key, as the device protocol scenarios use it.
export type BenchDevice = {
  id: number;
  uuid: string;
  key: string;
  fleetUuid: string;
  commit: string;
  // Image reference per service name of the fleet's release.
  images: Record<string, string>;
};

type DeviceRow = Omit<BenchDevice, 'key'> & { actor: number };

// `count` devices spread evenly over the seeded fleets, each with a fresh device key: keys are
// generated here (the format of api-key-tokens.ts) and only their SHA-256 hashes are stored, in
// one set-based insert.
export const createDeviceKeys = async (sql: Queryable, count: number): Promise<BenchDevice[]> => {
  const { rows: totals } = await sql.query<{ n: number }>(
    'SELECT count(*)::int AS "n" FROM "device"',
  );
  const stride = Math.max(1, Math.floor((totals[0]?.n ?? 0) / Math.max(1, count)));
  const { rows } = await sql.query<DeviceRow>(
    `SELECT d."id", d."uuid", d."actor", a."uuid" AS "fleetUuid", r."commit",
            coalesce((SELECT json_object_agg(s."service_name", i."is_stored_at__image_location" || '@' || i."content_hash")
                        FROM "release_image" ri
                        JOIN "image" i ON i."id" = ri."image"
                        JOIN "service" s ON s."id" = i."is_a_build_of__service"
                       WHERE ri."is_part_of__release" = r."id"), '{}'::json) AS "images"
       FROM "device" d
       JOIN "application" a ON a."id" = d."belongs_to__application"
       JOIN "release" r ON r."id" = a."should_be_running__release"
      WHERE (d."id" - 1) % $1 = 0
      ORDER BY d."id" LIMIT $2`,
    [stride, count],
  );
  const devices = rows.map(({ actor: _actor, ...row }) => ({ ...row, key: generateApiKey() }));
  await sql.query(
    `INSERT INTO "api_key" ("is_of__actor", "key_hash", "key_prefix", "name")
     SELECT k."actor", k."hash", k."prefix", 'bench device key'
       FROM unnest($1::int[], $2::text[], $3::text[]) AS k("actor", "hash", "prefix")`,
    [
      rows.map((row) => row.actor),
      devices.map((device) => hashApiKey(device.key)),
      devices.map((device) => apiKeyPrefix(device.key)),
    ],
  );
  await sql.query('ANALYZE "api_key"');
  return devices;
};

export type ScaleFleet = {
  applicationId: number;
  slug: string;
  deviceType: string;
  provisioningKey: string;
};

// A provisioning key for each of the given fleets (API keys of the fleets' actors).
export const createProvisioningKeys = async (
  sql: Queryable,
  fleetIds: readonly number[],
): Promise<ScaleFleet[]> => {
  const { rows } = await sql.query<{ id: number; actor: number; slug: string; type: string }>(
    `SELECT a."id", a."actor", a."slug", dt."slug" AS "type"
       FROM "application" a JOIN "device_type" dt ON dt."id" = a."is_for__device_type"
      WHERE a."id" = ANY($1::int[]) ORDER BY a."id"`,
    [fleetIds],
  );
  const keys = rows.map(() => generateApiKey());
  await sql.query(
    `INSERT INTO "api_key" ("is_of__actor", "key_hash", "key_prefix", "name")
     SELECT k."actor", k."hash", k."prefix", 'bench provisioning key'
       FROM unnest($1::int[], $2::text[], $3::text[]) AS k("actor", "hash", "prefix")`,
    [rows.map((row) => row.actor), keys.map(hashApiKey), keys.map(apiKeyPrefix)],
  );
  return rows.map((row, index) => ({
    applicationId: row.id,
    slug: row.slug,
    deviceType: row.type,
    provisioningKey: keys[index] ?? '',
  }));
};
