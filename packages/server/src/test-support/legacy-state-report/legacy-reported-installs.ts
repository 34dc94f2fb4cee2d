// Part of the legacy state report (legacy-apply-state-report.ts), unchanged but for imports.
import type { Queryable } from '../../infra/db/database.js';
import type { AppReport } from '@flotilla/shared/device-protocol/state-report-v3';

// Resolves what a state report names (apps by uuid, releases by commit, services by name) to rows,
// and turns the per-service entries into image_install rows.

export type ReleaseKey = `${string}/${string}`;
const keyOf = (appUuid: string, commit: string): ReleaseKey => `${appUuid}/${commit}`;

export type ResolvedRelease = { id: number; applicationId: number };

// Releases named by the report, of the device's own fleet or of public fleets (host OS and
// supervisor apps); anything else is ignored, never an error (a device may run what we deleted).
export const resolveReleases = async (
  db: Queryable,
  applicationId: number,
  apps: Record<string, AppReport>,
): Promise<Map<ReleaseKey, ResolvedRelease>> => {
  const appUuids: string[] = [];
  const commits: string[] = [];
  for (const [appUuid, app] of Object.entries(apps)) {
    const named = new Set(Object.keys(app.releases ?? {}));
    if (typeof app.release_uuid === 'string') named.add(app.release_uuid);
    for (const commit of named) {
      appUuids.push(appUuid);
      commits.push(commit);
    }
  }
  const resolved = new Map<ReleaseKey, ResolvedRelease>();
  if (commits.length === 0) return resolved;
  const { rows } = await db.query<{ id: number; app: number; app_uuid: string; commit: string }>(
    `SELECT r."id", a."id" AS "app", a."uuid" AS "app_uuid", r."commit"
       FROM unnest($1::text[], $2::text[]) AS named("app_uuid", "commit")
       JOIN "application" a ON a."uuid" = named."app_uuid"
       JOIN "release" r ON r."belongs_to__application" = a."id" AND r."commit" = named."commit"
      WHERE a."id" = $3 OR a."is_public"`,
    [appUuids, commits, applicationId],
  );
  for (const row of rows) {
    resolved.set(keyOf(row.app_uuid, row.commit), { id: row.id, applicationId: row.app });
  }
  return resolved;
};

export const releaseOf = (
  resolved: ReadonlyMap<ReleaseKey, ResolvedRelease>,
  appUuid: string,
  commit: string,
): ResolvedRelease | undefined => resolved.get(keyOf(appUuid, commit));

export type InstallRow = {
  imageId: number;
  serviceId: number;
  releaseId: number;
  applicationId: number;
  status: string;
  downloadProgress: number | null;
};

// One image_install row per reported service whose image the release has. An image shared by two
// reported releases (a service unchanged by an update) is one row: the target release's entry
// wins, else the first reported.
export const installRows = async (
  db: Queryable,
  apps: Record<string, AppReport>,
  resolved: ReadonlyMap<ReleaseKey, ResolvedRelease>,
  targetReleaseId: number | null,
): Promise<InstallRow[]> => {
  const releaseIds = [...new Set([...resolved.values()].map((release) => release.id))];
  if (releaseIds.length === 0) return [];
  const { rows } = await db.query<{
    release: number;
    service_name: string;
    image: number;
    service: number;
  }>(
    `SELECT ri."is_part_of__release" AS "release", s."service_name", i."id" AS "image", s."id" AS "service"
       FROM "release_image" ri
       JOIN "image" i ON i."id" = ri."image"
       JOIN "service" s ON s."id" = i."is_a_build_of__service"
      WHERE ri."is_part_of__release" = ANY($1::integer[])
      ORDER BY i."id"`,
    [releaseIds],
  );
  const images = new Map<string, { image: number; service: number }>();
  for (const row of rows) images.set(`${row.release}/${row.service_name}`, row);

  const byImage = new Map<number, InstallRow>();
  for (const [appUuid, app] of Object.entries(apps)) {
    for (const [commit, release] of Object.entries(app.releases ?? {})) {
      const resolvedRelease = releaseOf(resolved, appUuid, commit);
      if (!resolvedRelease) continue;
      for (const [serviceName, service] of Object.entries(release.services ?? {})) {
        const image = images.get(`${resolvedRelease.id}/${serviceName}`);
        if (!image) continue;
        const existing = byImage.get(image.image);
        if (existing && existing.releaseId === targetReleaseId) continue;
        if (existing && resolvedRelease.id !== targetReleaseId) continue;
        byImage.set(image.image, {
          imageId: image.image,
          serviceId: image.service,
          releaseId: resolvedRelease.id,
          applicationId: resolvedRelease.applicationId,
          status: service.status ?? 'Unknown',
          downloadProgress: service.download_progress ?? null,
        });
      }
    }
  }
  return [...byImage.values()];
};

// Upserts the reported installs and deletes the device's installs no longer reported. Service
// installs (what device service variables hang on) are ensured for the fleet's services.
export const replaceInstalls = async (
  tx: Queryable,
  device: { id: number; applicationId: number },
  rows: readonly InstallRow[],
  now: Date,
): Promise<void> => {
  const { rows: kept } = await tx.query<{ id: number }>(
    `INSERT INTO "image_install" ("device", "installs__image", "status", "download_progress", "is_provided_by__release", "install_date")
     SELECT $1, u."image", u."status", u."progress", u."release", $6
       FROM unnest($2::integer[], $3::text[], $4::integer[], $5::integer[]) AS u("image", "status", "progress", "release")
     ON CONFLICT ("device", "installs__image") DO UPDATE SET
       "status" = EXCLUDED."status",
       "download_progress" = EXCLUDED."download_progress",
       "is_provided_by__release" = EXCLUDED."is_provided_by__release"
     RETURNING "id"`,
    [
      device.id,
      rows.map((row) => row.imageId),
      rows.map((row) => row.status),
      rows.map((row) => row.downloadProgress),
      rows.map((row) => row.releaseId),
      now,
    ],
  );
  await tx.query(
    `DELETE FROM "image_install" WHERE "device" = $1 AND NOT ("id" = ANY($2::integer[]))`,
    [device.id, kept.map((row) => row.id)],
  );
  const fleetServices = rows
    .filter((row) => row.applicationId === device.applicationId)
    .map((row) => row.serviceId);
  if (fleetServices.length > 0) {
    await tx.query(
      `INSERT INTO "service_install" ("device", "installs__service")
       SELECT $1, s FROM unnest($2::integer[]) AS s
       ON CONFLICT ("device", "installs__service") DO NOTHING`,
      [device.id, fleetServices],
    );
  }
};
