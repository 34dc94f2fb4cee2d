import type {
  AppInputs,
  HostAppInputs,
  ReleaseInputs,
  ServiceInputs,
  TargetInputs,
} from '@flotilla/shared/device-protocol/target-state-v3-build';
import type { Queryable } from '../../infra/db/database.js';
import { shouldBeRunningRelease } from '../../model/definitions/device-status.js';
import { rawVersion } from '../../model/definitions/releases.js';

// Everything a target state is built from (TargetInputs), read with a handful of indexed queries.
// Rows come back in a fixed order so the built body (and so its ETag) is the same on every node.

type AppRow = {
  id: number;
  uuid: string;
  app_name: string;
  is_of__class: string;
  is_host: boolean;
};

const appColumns = `a."id", a."uuid", a."app_name", a."is_of__class", a."is_host"`;

const toApp = (row: AppRow): AppInputs => ({
  id: row.id,
  uuid: row.uuid,
  name: row.app_name,
  appClass: row.is_of__class,
  isHost: row.is_host,
});

const nameValues = async (db: Queryable, sql: string, owner: number): Promise<[string, string][]> =>
  (await db.query<{ name: string; value: string }>(sql, [owner])).rows.map((row) => [
    row.name,
    row.value,
  ]);

// Fleet configuration variables, overridden by the device's own.
const loadConfig = async (
  db: Queryable,
  appId: number,
  deviceId: number | undefined,
): Promise<Record<string, string>> => {
  const [fleet, device] = await Promise.all([
    nameValues(
      db,
      'SELECT "name", "value" FROM "application_config_variable" WHERE "application" = $1 ORDER BY "name"',
      appId,
    ),
    deviceId === undefined
      ? []
      : nameValues(
          db,
          'SELECT "name", "value" FROM "device_config_variable" WHERE "device" = $1 ORDER BY "name"',
          deviceId,
        ),
  ]);
  return Object.fromEntries([...fleet, ...device]);
};

type ImageRow = {
  release_id: number;
  commit: string;
  composition: Record<string, unknown> | null;
  service_id: number | null;
  service_name: string | null;
  image_id: number | null;
  location: string | null;
  content_hash: string | null;
  contract: unknown;
  release_image_id: number | null;
};

type VarRow = { service: number | null; name: string; value: string };

// Environment precedence, lowest first (a later source overrides an earlier one): the image's
// own variables from its build, the fleet's, the fleet's per service, the device's, and the
// device's per service. Labels: the image's, overridden by the service's.
const environmentSql = `
  SELECT i."is_a_build_of__service" AS "service", iev."name", iev."value", 0 AS "rank"
    FROM "image_environment_variable" iev
    JOIN "release_image" ri ON ri."id" = iev."release_image"
    JOIN "image" i ON i."id" = ri."image"
   WHERE ri."is_part_of__release" = $1
  UNION ALL
  SELECT NULL, aev."name", aev."value", 1 FROM "application_environment_variable" aev WHERE aev."application" = $2
  UNION ALL
  SELECT sev."service", sev."name", sev."value", 2
    FROM "service_environment_variable" sev
    JOIN "service" s ON s."id" = sev."service"
   WHERE s."application" = $2
  UNION ALL
  SELECT NULL, dev."name", dev."value", 3 FROM "device_environment_variable" dev WHERE dev."device" = $3
  UNION ALL
  SELECT si."installs__service", dsev."name", dsev."value", 4
    FROM "device_service_environment_variable" dsev
    JOIN "service_install" si ON si."id" = dsev."service_install"
   WHERE si."device" = $3
  ORDER BY "rank", "name"`;

const labelsSql = `
  SELECT i."is_a_build_of__service" AS "service", il."label_name" AS "name", il."value", 0 AS "rank"
    FROM "image_label" il
    JOIN "release_image" ri ON ri."id" = il."release_image"
    JOIN "image" i ON i."id" = ri."image"
   WHERE ri."is_part_of__release" = $1
  UNION ALL
  SELECT sl."service", sl."label_name", sl."value", 1
    FROM "service_label" sl
    JOIN "service" s ON s."id" = sl."service"
   WHERE s."application" = $2
  ORDER BY "rank", "name"`;

// Variables that apply to a service: those of the service and those of no particular service.
const forService = (rows: readonly VarRow[], serviceId: number): Record<string, string> => {
  const merged: Record<string, string> = {};
  for (const row of rows) {
    if (row.service === null || row.service === serviceId) merged[row.name] = row.value;
  }
  return merged;
};

// balena serves an image by digest when it has one.
const imageReference = (location: string, contentHash: string | null): string =>
  contentHash && !location.includes('@') ? `${location}@${contentHash}` : location;

const loadRelease = async (
  db: Queryable,
  releaseId: number,
  appId: number,
  deviceId: number | undefined,
): Promise<ReleaseInputs | undefined> => {
  const [images, environment, labels] = await Promise.all([
    db.query<ImageRow>(
      `SELECT r."id" AS "release_id", r."commit", r."composition",
              s."id" AS "service_id", s."service_name", i."id" AS "image_id",
              i."is_stored_at__image_location" AS "location", i."content_hash", i."contract",
              ri."id" AS "release_image_id"
         FROM "release" r
         LEFT JOIN "release_image" ri ON ri."is_part_of__release" = r."id"
         LEFT JOIN "image" i ON i."id" = ri."image"
         LEFT JOIN "service" s ON s."id" = i."is_a_build_of__service"
        WHERE r."id" = $1 AND r."belongs_to__application" = $2
        ORDER BY s."service_name", i."id"`,
      [releaseId, appId],
    ),
    db.query<VarRow>(environmentSql, [releaseId, appId, deviceId ?? null]),
    db.query<VarRow>(labelsSql, [releaseId, appId]),
  ]);
  const first = images.rows[0];
  if (!first) return undefined;
  const services: ServiceInputs[] = [];
  for (const row of images.rows) {
    if (row.service_id === null || row.service_name === null || row.image_id === null) continue;
    // One image per service and release; should a release hold two, the newest wins.
    const existing = services.findIndex((service) => service.serviceId === row.service_id);
    const service: ServiceInputs = {
      serviceId: row.service_id,
      serviceName: row.service_name,
      imageId: row.image_id,
      image: imageReference(row.location ?? '', row.content_hash),
      contract: row.contract,
      environment: forService(environment.rows, row.service_id),
      labels: forService(labels.rows, row.service_id),
    };
    if (existing >= 0) services[existing] = service;
    else services.push(service);
  }
  return {
    id: first.release_id,
    commit: first.commit,
    composition: first.composition ?? {},
    services,
  };
};

// The host OS app and release an active device should run, when it is told to run one.
const loadHostApp = async (
  db: Queryable,
  releaseId: number | null,
): Promise<HostAppInputs | undefined> => {
  if (releaseId === null) return undefined;
  const { rows } = await db.query<AppRow & { raw_version: string }>(
    `SELECT ${appColumns}, ${rawVersion('r')} AS "raw_version"
       FROM "release" r JOIN "application" a ON a."id" = r."belongs_to__application"
      WHERE r."id" = $1 AND a."is_host"`,
    [releaseId],
  );
  const row = rows[0];
  if (!row) return undefined;
  // No device variables: the host OS update is the same for every device.
  const release = await loadRelease(db, releaseId, row.id, undefined);
  return release ? { app: toApp(row), release, version: row.raw_version } : undefined;
};

// The device's fleet, its configuration, the release it should run (pinned, else the fleet's)
// and the host OS release it should run. A deactivated device runs no release: its target state
// names none.
export const loadDeviceTarget = async (db: Queryable, deviceId: number): Promise<TargetInputs> => {
  const { rows } = await db.query<
    AppRow & {
      device_uuid: string;
      device_name: string;
      is_active: boolean;
      release_id: number | null;
      host_release_id: number | null;
    }
  >(
    `SELECT ${appColumns}, d."uuid" AS "device_uuid", d."device_name", d."is_active",
            CASE WHEN d."is_active" THEN ${shouldBeRunningRelease('"d"')} END AS "release_id",
            CASE WHEN d."is_active" THEN d."should_be_operated_by__release" END AS "host_release_id"
       FROM "device" d JOIN "application" a ON a."id" = d."belongs_to__application"
      WHERE d."id" = $1`,
    [deviceId],
  );
  const row = rows[0];
  if (!row) throw new Error(`device ${deviceId} vanished`);
  const [config, release, hostApp] = await Promise.all([
    loadConfig(db, row.id, deviceId),
    row.release_id === null ? undefined : loadRelease(db, row.release_id, row.id, deviceId),
    loadHostApp(db, row.host_release_id),
  ]);
  return {
    device: {
      id: deviceId,
      uuid: row.device_uuid,
      name: row.device_name,
      isActive: row.is_active,
    },
    app: toApp(row),
    config,
    targetReleaseId: row.release_id,
    release,
    ...(hostApp ? { hostApp } : {}),
  };
};

// A fleet's target for no device in particular: the release with the given commit (the release
// "uuid"), else the fleet's target release.
export const loadFleetTarget = async (
  db: Queryable,
  appId: number,
  releaseCommit: string | undefined,
): Promise<TargetInputs> => {
  const { rows } = await db.query<AppRow & { release_id: number | null }>(
    `SELECT ${appColumns},
            CASE WHEN $2::text IS NULL THEN a."should_be_running__release"
                 ELSE (SELECT r."id" FROM "release" r WHERE r."belongs_to__application" = a."id" AND r."commit" = $2) END
              AS "release_id"
       FROM "application" a WHERE a."id" = $1`,
    [appId, releaseCommit ?? null],
  );
  const row = rows[0];
  if (!row) throw new Error(`application ${appId} vanished`);
  const [config, release] = await Promise.all([
    loadConfig(db, row.id, undefined),
    row.release_id === null ? undefined : loadRelease(db, row.release_id, row.id, undefined),
  ]);
  return { device: undefined, app: toApp(row), config, targetReleaseId: row.release_id, release };
};
