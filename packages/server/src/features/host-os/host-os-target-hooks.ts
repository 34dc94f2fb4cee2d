import { deviceOsVariant, keepsVariant } from '@flotilla/shared/host-os/os-update-eligibility';
import {
  compareOsVersions,
  parseOsVersion,
  type OsVersion,
} from '@flotilla/shared/host-os/os-version';
import { badRequest } from '../../infra/errors/api-error.js';
import type { HookRegistry, Values, WriteContext } from '../../infra/odata/hooks.js';

// Which host OS and supervisor release a device is told to run. Who may set them is the
// field-permission table's business (OS update and supervisor update permissions); these rules
// say which releases are valid targets for anyone: a final, valid, successful release of the
// device type's host application (OS) or of the device architecture's supervisor application,
// never older than what the device runs, and for the OS of the variant (dev or prod) it runs.

type TargetRow = {
  device_id: number;
  device_name: string;
  os_version: string | null;
  os_variant: string | null;
  supervisor_version: string | null;
  device_type: string;
  cpu_architecture: string;
  release_id: number;
  is_final: boolean;
  is_invalidated: boolean;
  status: string;
  variant: string;
  semver_major: number;
  semver_minor: number;
  semver_patch: number;
  semver_prerelease: string;
  revision: number | null;
  is_host: boolean;
  is_for__device_type: number;
  is_of__device_type: number;
  app_slug: string;
  app_is_public: boolean;
};

const asId = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) ? value : undefined;

const targetRows = async (
  ctx: WriteContext,
  ids: readonly number[],
  releaseId: number,
): Promise<TargetRow[]> => {
  const { rows } = await ctx.tx.query<TargetRow>(
    `SELECT d."id" AS "device_id", d."device_name", d."os_version", d."os_variant",
            d."supervisor_version", d."is_of__device_type", dt."slug" AS "device_type",
            ca."slug" AS "cpu_architecture", r."id" AS "release_id", r."is_final",
            r."is_invalidated", r."status", r."variant", r."semver_major", r."semver_minor",
            r."semver_patch", r."semver_prerelease", r."revision", a."is_host",
            a."is_for__device_type", a."slug" AS "app_slug", a."is_public" AS "app_is_public"
       FROM "device" d
       JOIN "device_type" dt ON dt."id" = d."is_of__device_type"
       JOIN "cpu_architecture" ca ON ca."id" = dt."is_of__cpu_architecture"
       CROSS JOIN "release" r
       JOIN "application" a ON a."id" = r."belongs_to__application"
      WHERE d."id" = ANY($1::integer[]) AND r."id" = $2
      ORDER BY d."id"`,
    [[...ids], releaseId],
  );
  return rows;
};

const releaseVersion = (row: TargetRow): OsVersion => ({
  major: row.semver_major,
  minor: row.semver_minor,
  patch: row.semver_patch,
  prerelease: row.semver_prerelease === '' ? [] : row.semver_prerelease.split('.'),
  revision: row.revision ?? 0,
  variant: null,
});

const versionText = (version: OsVersion): string =>
  `${version.major}.${version.minor}.${version.patch}` +
  (version.prerelease.length > 0 ? `-${version.prerelease.join('.')}` : '') +
  (version.revision > 0 ? `+rev${version.revision}` : '');

// Drafts, failed builds and invalidated releases are never a target.
const checkUsable = (row: TargetRow, what: string): void => {
  if (!row.is_final || row.is_invalidated || row.status !== 'success') {
    throw badRequest(
      `${what} ${versionText(releaseVersion(row))} cannot be targeted: only final, valid, successful releases can`,
    );
  }
};

const checkNotOlder = (row: TargetRow, running: string | null, what: string): void => {
  const current = parseOsVersion(running);
  const target = releaseVersion(row);
  if (current != null && compareOsVersions(target, current) < 0) {
    throw badRequest(
      `${what} downgrades are not allowed: ${row.device_name} runs ${versionText(current)}, the target is ${versionText(target)}`,
    );
  }
};

const checkOsTarget = async (ctx: WriteContext, ids: readonly number[], releaseId: number) => {
  for (const row of await targetRows(ctx, ids, releaseId)) {
    if (!row.is_host || row.is_for__device_type !== row.is_of__device_type) {
      throw badRequest(
        `Release ${releaseId} is not a host OS release for device type ${row.device_type}`,
      );
    }
    checkUsable(row, 'OS release');
    const variant = deviceOsVariant({ osVersion: row.os_version, osVariant: row.os_variant });
    if (!keepsVariant(variant, row.variant)) {
      throw badRequest(
        'Updates cannot be performed between development and production balenaOS variants',
      );
    }
    checkNotOlder(row, row.os_version, 'OS');
  }
};

const checkSupervisorTarget = async (
  ctx: WriteContext,
  ids: readonly number[],
  releaseId: number,
) => {
  for (const row of await targetRows(ctx, ids, releaseId)) {
    if (
      row.is_host ||
      !row.app_is_public ||
      row.app_slug !== `balena_os/${row.cpu_architecture}-supervisor`
    ) {
      throw badRequest(
        `Release ${releaseId} is not a supervisor release for the ${row.cpu_architecture} architecture of ${row.device_type}`,
      );
    }
    checkUsable(row, 'Supervisor release');
    checkNotOlder(row, row.supervisor_version, 'Supervisor');
  }
};

const checkTargets = async (ctx: WriteContext, ids: readonly number[], values: Values) => {
  const os = asId(values.should_be_operated_by__release);
  if (os !== undefined) await checkOsTarget(ctx, ids, os);
  const supervisor = asId(values.should_be_managed_by__release);
  if (supervisor !== undefined) await checkSupervisorTarget(ctx, ids, supervisor);
};

export const registerHostOsTargetHooks = (hooks: HookRegistry): void => {
  hooks.add('device', {
    // A new device is judged once its row exists (its device type and reported versions);
    // a refusal rolls the creation back.
    async afterCreate(ctx, id, values) {
      await checkTargets(ctx, [id], values);
    },
    async beforeUpdate(ctx, ids, values) {
      await checkTargets(ctx, ids, values);
    },
  });
};
