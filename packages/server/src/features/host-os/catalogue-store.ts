import { createHash } from 'node:crypto';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest, conflict, notFound } from '../../infra/errors/api-error.js';
import { rawVersion } from '../../model/definitions/releases.js';
import { type CatalogueRelease, esrBaseVersionTag } from '@flotilla/shared/host-os/catalogue';
import type { CatalogueEdit, CatalogueEntry, CatalogueFile } from './catalogue-entry.js';

// The host OS catalogue is kept as balena's API keeps it, so balena-sdk and balena-cli read it
// unchanged: per device type a public host application `balena_os/<device type>` (is_host), per
// CPU architecture a public supervisor application `balena_os/<architecture>-supervisor`, both
// owned by the system organization `balena_os` (no members: only platform administrators write
// it, through these functions), with one final, successful release per version and variant.

const catalogueOrganizationHandle = 'balena_os';

type Outcome = 'created' | 'updated' | 'unchanged';

type Target = {
  slug: string;
  appName: string;
  isHost: boolean;
  deviceTypeId: number;
  // The service whose image is the updater image.
  serviceName: string;
};

// How an entry is named in messages, e.g. "os raspberrypi4-64 6.0.13 prod".
export const describeEntry = (entry: CatalogueEntry): string =>
  entry.kind === 'os'
    ? `os ${entry.deviceType} ${entry.version}${entry.variant === '' ? '' : ` ${entry.variant}`}`
    : `supervisor ${entry.cpuArchitecture} ${entry.version}`;

const variantOf = (entry: CatalogueEntry): string => (entry.kind === 'os' ? entry.variant : '');

// The release's commit: stable for one identity, so importing a file again finds the same row.
const commitOf = (entry: CatalogueEntry): string =>
  createHash('md5').update(describeEntry(entry)).digest('hex');

const organizationId = async (tx: Queryable): Promise<number> => {
  const existing = await tx.query<{ id: number }>(
    `SELECT "id" FROM "organization" WHERE "handle" = $1`,
    [catalogueOrganizationHandle],
  );
  const found = existing.rows[0]?.id;
  if (found !== undefined) {
    // A users' organization that took the handle first must not get the catalogue's public fleets.
    const members = await tx.query(
      `SELECT 1 FROM "organization_membership" WHERE "is_member_of__organization" = $1 LIMIT 1`,
      [found],
    );
    if ((members.rowCount ?? 0) > 0) {
      throw conflict(
        `The organization ${catalogueOrganizationHandle} has members: rename it before writing the OS catalogue`,
      );
    }
    return found;
  }
  const created = await tx.query<{ id: number }>(
    `INSERT INTO "organization" ("name", "handle") VALUES ('balenaOS', $1)
     ON CONFLICT ("handle") DO NOTHING RETURNING "id"`,
    [catalogueOrganizationHandle],
  );
  const id = created.rows[0]?.id;
  return id ?? organizationId(tx);
};

const targetOf = async (tx: Queryable, entry: CatalogueEntry, label: string): Promise<Target> => {
  if (entry.kind === 'os') {
    const { rows } = await tx.query<{ id: number }>(
      `SELECT "id" FROM "device_type" WHERE "slug" = $1`,
      [entry.deviceType],
    );
    const id = rows[0]?.id;
    if (id === undefined) throw badRequest(`${label}: unknown device type ${entry.deviceType}`);
    return {
      slug: `${catalogueOrganizationHandle}/${entry.deviceType}`,
      appName: entry.deviceType,
      isHost: true,
      deviceTypeId: id,
      serviceName: 'hostapp',
    };
  }
  // A supervisor application stands for an architecture through one of its device types (a
  // generic one when there is one), which is how balena's API filters it.
  const { rows } = await tx.query<{ id: number }>(
    `SELECT dt."id" FROM "device_type" dt
       JOIN "cpu_architecture" c ON c."id" = dt."is_of__cpu_architecture"
      WHERE c."slug" = $1
      ORDER BY (dt."slug" LIKE 'generic%') DESC, dt."id" LIMIT 1`,
    [entry.cpuArchitecture],
  );
  const id = rows[0]?.id;
  if (id === undefined) {
    throw badRequest(`${label}: unknown CPU architecture ${entry.cpuArchitecture}`);
  }
  return {
    slug: `${catalogueOrganizationHandle}/${entry.cpuArchitecture}-supervisor`,
    appName: `${entry.cpuArchitecture}-supervisor`,
    isHost: false,
    deviceTypeId: id,
    serviceName: 'balena-supervisor',
  };
};

const applicationOf = async (tx: Queryable, target: Target, label: string): Promise<number> => {
  const organization = await organizationId(tx);
  const existing = await tx.query<{ id: number; organization: number }>(
    `SELECT "id", "organization" FROM "application" WHERE "slug" = $1`,
    [target.slug],
  );
  const row = existing.rows[0];
  if (row !== undefined) {
    if (row.organization !== organization) {
      throw conflict(`${label}: the fleet ${target.slug} is not the catalogue's`);
    }
    return row.id;
  }
  const created = await tx.query<{ id: number }>(
    `INSERT INTO "application" ("app_name", "slug", "organization", "is_for__device_type",
                                "is_host", "is_public", "should_track_latest_release")
     VALUES ($1, $2, $3, $4, $5, true, false) RETURNING "id"`,
    [target.appName, target.slug, organization, target.deviceTypeId, target.isHost],
  );
  const id = created.rows[0]?.id;
  if (id === undefined) throw new Error('application insert returned no id');
  return id;
};

// Points the release at its updater image (a service image, as a balena host release carries
// one), or at none. Answers whether anything changed.
const setUpdaterImage = async (
  tx: Queryable,
  applicationId: number,
  releaseId: number,
  serviceName: string,
  image: string | null,
): Promise<boolean> => {
  const current = await tx.query<{ id: number; location: string }>(
    `SELECT i."id", i."is_stored_at__image_location" AS "location"
       FROM "release_image" ri JOIN "image" i ON i."id" = ri."image"
      WHERE ri."is_part_of__release" = $1 ORDER BY i."id"`,
    [releaseId],
  );
  const [first, ...rest] = current.rows;
  if (image === null || rest.length > 0) {
    if (current.rows.length > 0) {
      await tx.query(`DELETE FROM "image" WHERE "id" = ANY($1::integer[])`, [
        current.rows.map((row) => row.id),
      ]);
    }
    if (image === null) return current.rows.length > 0;
  } else if (first !== undefined) {
    if (first.location === image) return false;
    await tx.query(`UPDATE "image" SET "is_stored_at__image_location" = $2 WHERE "id" = $1`, [
      first.id,
      image,
    ]);
    return true;
  }
  const service = await tx.query<{ id: number }>(
    `SELECT "id" FROM "service" WHERE "application" = $1 AND "service_name" = $2`,
    [applicationId, serviceName],
  );
  const serviceId =
    service.rows[0]?.id ??
    (
      await tx.query<{ id: number }>(
        `INSERT INTO "service" ("application", "service_name") VALUES ($1, $2) RETURNING "id"`,
        [applicationId, serviceName],
      )
    ).rows[0]?.id;
  if (serviceId === undefined) throw new Error('service insert returned no id');
  const created = await tx.query<{ id: number }>(
    `INSERT INTO "image" ("is_a_build_of__service", "is_stored_at__image_location", "status",
                          "push_timestamp", "end_timestamp")
     VALUES ($1, $2, 'success', now(), now()) RETURNING "id"`,
    [serviceId, image],
  );
  const imageId = created.rows[0]?.id;
  if (imageId === undefined) throw new Error('image insert returned no id');
  await tx.query(`INSERT INTO "release_image" ("image", "is_part_of__release") VALUES ($1, $2)`, [
    imageId,
    releaseId,
  ]);
  return true;
};

const esrMajorAbove = 2000;

const checkBaseVersion = (version: string, base: string | null | undefined, label: string) => {
  if (base == null) return;
  const major = (text: string) => Number(/^v?(\d+)/.exec(text)?.[1] ?? 0);
  if (major(version) <= esrMajorAbove) {
    throw badRequest(`${label}: baseVersion is only for ESR releases (major above 2000)`);
  }
  if (major(base) > esrMajorAbove) {
    throw badRequest(`${label}: baseVersion must be a regular (non-ESR) version`);
  }
};

// Sets or clears the base version tag; answers whether it changed.
const setBaseVersion = async (
  tx: Queryable,
  releaseId: number,
  base: string | null,
): Promise<boolean> => {
  const changed =
    base === null
      ? await tx.query(`DELETE FROM "release_tag" WHERE "release" = $1 AND "tag_key" = $2`, [
          releaseId,
          esrBaseVersionTag,
        ])
      : await tx.query(
          `INSERT INTO "release_tag" ("release", "tag_key", "value") VALUES ($1, $2, $3)
           ON CONFLICT ("release", "tag_key") DO UPDATE SET "value" = excluded."value"
            WHERE "release_tag"."value" IS DISTINCT FROM excluded."value"`,
          [releaseId, esrBaseVersionTag, base],
        );
  return (changed.rowCount ?? 0) > 0;
};

// Writes one entry: creates its release (and its application on first use) or, when `mode` is
// 'import', brings an existing one in line with the entry, touching nothing already equal.
export const writeEntry = async (
  tx: Queryable,
  entry: CatalogueEntry,
  label: string,
  mode: 'create' | 'import',
): Promise<{ id: number; outcome: Outcome }> => {
  const baseVersion = entry.kind === 'os' ? (entry.baseVersion ?? null) : undefined;
  checkBaseVersion(entry.version, baseVersion, label);
  const target = await targetOf(tx, entry, label);
  const applicationId = await applicationOf(tx, target, label);
  const commit = commitOf(entry);
  const existing = await tx.query<{ id: number }>(
    `SELECT "id" FROM "release" WHERE "belongs_to__application" = $1 AND "commit" = $2`,
    [applicationId, commit],
  );
  const existingId = existing.rows[0]?.id;
  if (existingId !== undefined && mode === 'create') {
    throw conflict(`${label} is already in the catalogue (release ${existingId})`);
  }
  if (existingId === undefined) {
    const created = await tx.query<{ id: number }>(
      `INSERT INTO "release" ("belongs_to__application", "commit", "status", "source", "semver",
                              "variant", "phase", "known_issue_list", "note", "is_invalidated",
                              "is_final", "end_timestamp")
       VALUES ($1, $2, 'success', 'cloud', $3, $4, $5, $6, $7, $8, true, now()) RETURNING "id"`,
      [
        applicationId,
        commit,
        entry.version,
        variantOf(entry),
        entry.phase,
        entry.knownIssues,
        entry.notes,
        entry.invalidated,
      ],
    );
    const id = created.rows[0]?.id;
    if (id === undefined) throw new Error('release insert returned no id');
    await setUpdaterImage(tx, applicationId, id, target.serviceName, entry.updaterImage);
    if (baseVersion != null) await setBaseVersion(tx, id, baseVersion);
    return { id, outcome: 'created' };
  }
  const changed = await describeRelease(tx, existingId, {
    phase: entry.phase,
    knownIssues: entry.knownIssues,
    notes: entry.notes,
    updaterImage: entry.updaterImage,
    invalidated: entry.invalidated,
    baseVersion,
  });
  return { id: existingId, outcome: changed ? 'updated' : 'unchanged' };
};

type CatalogueRow = { id: number; application: number; is_host: boolean; version: string };

const catalogueRelease = async (tx: Queryable, id: number): Promise<CatalogueRow> => {
  const { rows } = await tx.query<CatalogueRow>(
    `SELECT r."id", a."id" AS "application", a."is_host", r."semver" AS "version"
       FROM "release" r JOIN "application" a ON a."id" = r."belongs_to__application"
       JOIN "organization" o ON o."id" = a."organization"
      WHERE r."id" = $1 AND o."handle" = $2`,
    [id, catalogueOrganizationHandle],
  );
  const row = rows[0];
  if (row === undefined) throw notFound(`No OS or supervisor release ${id} in the catalogue`);
  return row;
};

// Applies the given descriptive fields to a catalogue release; answers whether anything changed.
const describeRelease = async (
  tx: Queryable,
  id: number,
  edit: CatalogueEdit,
): Promise<boolean> => {
  const row = await catalogueRelease(tx, id);
  if (edit.baseVersion !== undefined) {
    if (!row.is_host && edit.baseVersion !== null) {
      throw badRequest(`Release ${id}: baseVersion is only for host OS releases`);
    }
    checkBaseVersion(row.version, edit.baseVersion, `Release ${id}`);
  }
  const updated = await tx.query(
    `UPDATE "release" r SET
        "phase" = CASE WHEN $2 THEN $3 ELSE r."phase" END,
        "known_issue_list" = CASE WHEN $4 THEN $5 ELSE r."known_issue_list" END,
        "note" = CASE WHEN $6 THEN $7 ELSE r."note" END,
        "is_invalidated" = coalesce($8, r."is_invalidated")
      WHERE r."id" = $1
        AND (CASE WHEN $2 THEN r."phase" IS DISTINCT FROM $3 ELSE false END
          OR CASE WHEN $4 THEN r."known_issue_list" IS DISTINCT FROM $5 ELSE false END
          OR CASE WHEN $6 THEN r."note" IS DISTINCT FROM $7 ELSE false END
          OR ($8::boolean IS NOT NULL AND r."is_invalidated" IS DISTINCT FROM $8))`,
    [
      id,
      edit.phase !== undefined,
      edit.phase ?? null,
      edit.knownIssues !== undefined,
      edit.knownIssues ?? null,
      edit.notes !== undefined,
      edit.notes ?? null,
      edit.invalidated ?? null,
    ],
  );
  const imageChanged =
    edit.updaterImage === undefined
      ? false
      : await setUpdaterImage(
          tx,
          row.application,
          id,
          row.is_host ? 'hostapp' : 'balena-supervisor',
          edit.updaterImage,
        );
  const baseChanged =
    edit.baseVersion === undefined || !row.is_host
      ? false
      : await setBaseVersion(tx, id, edit.baseVersion);
  return (updated.rowCount ?? 0) > 0 || imageChanged || baseChanged;
};

export const editRelease = async (tx: Queryable, id: number, edit: CatalogueEdit) => {
  await describeRelease(tx, id, edit);
};

// Removes a release no device is told to run; one that is in use can be invalidated instead.
export const removeRelease = async (tx: Queryable, id: number): Promise<void> => {
  await catalogueRelease(tx, id);
  const { rows } = await tx.query<{ n: number }>(
    `SELECT count(*)::integer AS "n" FROM "device"
      WHERE "should_be_operated_by__release" = $1 OR "should_be_managed_by__release" = $1`,
    [id],
  );
  const inUse = rows[0]?.n ?? 0;
  if (inUse > 0) {
    throw conflict(
      `Release ${id} is the OS or supervisor release of ${inUse} device(s): invalidate it instead`,
    );
  }
  await tx.query(
    `DELETE FROM "image" WHERE "id" IN
       (SELECT "image" FROM "release_image" WHERE "is_part_of__release" = $1)`,
    [id],
  );
  await tx.query(`DELETE FROM "release" WHERE "id" = $1`, [id]);
};

// Loads a whole catalogue file in one transaction: every entry is created or brought in line,
// releases the file does not name are left alone, and the first bad entry undoes everything.
export const importCatalogue = async (
  tx: Queryable,
  file: CatalogueFile,
): Promise<Record<Outcome, number>> => {
  const seen = new Map<string, number>();
  file.releases.forEach((entry, index) => {
    const identity = describeEntry(entry);
    const earlier = seen.get(identity);
    if (earlier !== undefined) {
      throw badRequest(`releases[${index}] (${identity}) repeats releases[${earlier}]`);
    }
    seen.set(identity, index);
  });
  const counts: Record<Outcome, number> = { created: 0, updated: 0, unchanged: 0 };
  for (const [index, entry] of file.releases.entries()) {
    const { outcome } = await writeEntry(
      tx,
      entry,
      `releases[${index}] (${describeEntry(entry)})`,
      'import',
    );
    counts[outcome] += 1;
  }
  return counts;
};

type ListedRow = {
  id: number;
  is_host: boolean;
  application: string;
  device_type: string;
  cpu_architecture: string;
  semver: string;
  raw_version: string;
  variant: string;
  phase: string | null;
  known_issue_list: string | null;
  note: string | null;
  updater_image: string | null;
  base_version: string | null;
  is_invalidated: boolean;
  created_at: string;
  devices: number;
};

// Every catalogue release, OS releases first, newest version first within an application.
export const listReleases = async (
  db: Queryable,
  only?: { id: number },
): Promise<CatalogueRelease[]> => {
  const { rows } = await db.query<ListedRow>(
    `SELECT r."id", a."is_host", a."slug" AS "application", dt."slug" AS "device_type",
            c."slug" AS "cpu_architecture", r."semver", ${rawVersion('r')} AS "raw_version",
            r."variant", r."phase", r."known_issue_list", r."note", r."is_invalidated",
            (SELECT i."is_stored_at__image_location" FROM "release_image" ri
               JOIN "image" i ON i."id" = ri."image"
              WHERE ri."is_part_of__release" = r."id" ORDER BY i."id" LIMIT 1) AS "updater_image",
            (SELECT t."value" FROM "release_tag" t
              WHERE t."release" = r."id" AND t."tag_key" = $3) AS "base_version",
            to_char(r."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "created_at",
            (SELECT count(*)::integer FROM "device" d
              WHERE d."should_be_operated_by__release" = r."id"
                 OR d."should_be_managed_by__release" = r."id") AS "devices"
       FROM "release" r
       JOIN "application" a ON a."id" = r."belongs_to__application"
       JOIN "organization" o ON o."id" = a."organization"
       JOIN "device_type" dt ON dt."id" = a."is_for__device_type"
       JOIN "cpu_architecture" c ON c."id" = dt."is_of__cpu_architecture"
      WHERE o."handle" = $1 AND ($2::integer IS NULL OR r."id" = $2)
      ORDER BY a."is_host" DESC, a."slug", r."semver_major" DESC, r."semver_minor" DESC,
               r."semver_patch" DESC, r."variant", r."id"`,
    [catalogueOrganizationHandle, only?.id ?? null, esrBaseVersionTag],
  );
  return rows.map((row) => ({
    id: row.id,
    kind: row.is_host ? 'os' : 'supervisor',
    application: row.application,
    deviceType: row.is_host ? row.device_type : null,
    cpuArchitecture: row.cpu_architecture,
    version: row.semver,
    rawVersion: row.raw_version,
    variant: row.variant,
    phase: row.phase,
    knownIssues: row.known_issue_list,
    notes: row.note,
    updaterImage: row.updater_image,
    baseVersion: row.base_version,
    invalidated: row.is_invalidated,
    createdAt: row.created_at,
    devices: row.devices,
  }));
};
