import {
  compareOsVersions,
  parseOsVersion,
  type OsVersion,
} from '@flotilla/shared/host-os/os-version';
import { osUpdateMessages } from '@flotilla/shared/host-os/os-update-eligibility';
import { fieldPermissionOf, permissionParts } from '@flotilla/shared/permissions/field-permissions';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import type { Queryable } from '../../infra/db/database.js';
import { ApiError, badRequest, forbidden, notFound } from '../../infra/errors/api-error.js';
import { createActorWriter } from '../../infra/odata/actor-writes.js';
import { resourceOf } from '../../infra/odata/compile-context.js';
import { createPermissionFilter } from '../../infra/odata/permissions.js';
import { createSqlParams } from '../../infra/odata/sql-params.js';
import { rawVersion } from '../../model/definitions/releases.js';

// balena's actions service, as balena-sdk's device.startOsUpdate and the console call it: starting
// an OS update ("resinhup") tells the device which host OS release to run, exactly as a PATCH of
// should_be_operated_by__release does (same permission, same rules), and the action's status is
// read back from what the device reports while it updates.

export type ActionStatus = 'triggered' | 'in_progress' | 'done' | 'error';

export type OsUpdateAction = {
  id: string;
  action: 'resinhup';
  device: string;
  status: ActionStatus;
  parameters: { target_version: string };
  error?: string;
};

type DeviceRow = {
  id: number;
  uuid: string;
  device_name: string;
  os_version: string | null;
  os_variant: string | null;
  is_connected_to_vpn: boolean;
  provisioning_state: string | null;
  device_type_id: number;
  device_type: string;
  may_update_os: boolean;
  // The host OS release the device is told to run now (null: none named).
  pinned_release: number | null;
  // What the device's agent said about running OS updates (null: it did not say).
  host_os_updates: boolean | null;
};

// What a device reports while it updates its host OS: `OS update: <step> balenaOS <version>`,
// and `OS update to balenaOS <version> failed: <reason>` once it gave up and went back to the
// version it ran. A state that names no version is taken to be about the update under way.
const updatingState = /^OS update:/;
const failedState = /^OS update(?: to balenaOS (\S+))? failed:?\s*(.*)$/;
const namedVersion = /balenaOS (\S+)/;

const actionIdPattern = /^resinhup-(\d{1,10})$/;
const actionIdOf = (releaseId: number): string => `resinhup-${releaseId}`;
export const isOsUpdateActionId = (id: string): boolean => actionIdPattern.test(id);

// The device permission that guards should_be_operated_by__release (the shared field table).
const osUpdateAction = (): string => {
  const rule = fieldPermissionOf('device', 'should_be_operated_by__release');
  if (!rule) throw new Error('no permission guards should_be_operated_by__release');
  return permissionParts(rule.permission).action;
};

// A device by its UUID (balena's route) or its id (the console's run-or-queue route).
export type DeviceKey = { uuid: string } | { id: number };

// The device as the caller sees it, and whether the caller may update its OS; one the caller
// cannot see is a 401, as for balena's proxy.
const visibleDevice = async (db: Queryable, ctx: AppContext, actor: Actor, key: DeviceKey) => {
  const params = createSqlParams(actor);
  const permission = createPermissionFilter(params);
  const device = resourceOf(ctx.model, 'device');
  const readable = permission(device, 'read', '"d"');
  if (readable === null) throw forbidden();
  const mayUpdate = permission(device, osUpdateAction(), '"d"') ?? 'false';
  const { rows } = await db.query<DeviceRow>(
    `SELECT "d"."id", "d"."uuid", "d"."device_name", "d"."os_version", "d"."os_variant",
            "d"."is_connected_to_vpn", "d"."provisioning_state", "d"."host_os_updates",
            "d"."should_be_operated_by__release" AS "pinned_release",
            "dt"."id" AS "device_type_id", "dt"."slug" AS "device_type",
            coalesce(${mayUpdate}, false) AS "may_update_os"
       FROM "device" "d" JOIN "device_type" "dt" ON "dt"."id" = "d"."is_of__device_type"
      WHERE ${'uuid' in key ? `"d"."uuid" = ${params.add(key.uuid)}` : `"d"."id" = ${params.add(key.id)}::integer`}
        AND ${readable}`,
    params.values(),
  );
  const found = rows[0];
  if (found === undefined) throw forbidden();
  return found;
};

// `6.0.13`, `6.0.13+rev1`, `balenaOS 6.0.13`, and with the variant the console appends:
// `6.0.13.prod`, `6.0.13+rev1.dev`.
export const parseTargetVersion = (raw: string): OsVersion => {
  const trimmed = raw.trim();
  const withVariant = /^[^+]*\.(dev|prod)$/.test(trimmed)
    ? trimmed.replace(/\.(dev|prod)$/, '+$1')
    : trimmed;
  const version = parseOsVersion(withVariant);
  if (version === null) {
    throw badRequest(
      `target_version: ${JSON.stringify(raw)} is not a balenaOS version such as 6.0.13`,
    );
  }
  return version;
};

type ReleaseRow = {
  id: number;
  variant: string;
  semver_major: number;
  semver_minor: number;
  semver_patch: number;
  semver_prerelease: string;
  revision: number | null;
  usable: boolean;
};

const releaseVersion = (row: ReleaseRow): OsVersion => ({
  major: row.semver_major,
  minor: row.semver_minor,
  patch: row.semver_patch,
  prerelease: row.semver_prerelease === '' ? [] : row.semver_prerelease.split('.'),
  revision: row.revision ?? 0,
  variant: null,
});

// The release of the device type's host application with that version: of the variant the
// target names, else of the device's, else the unified one; a usable release before an
// unusable one (which the update rules then refuse with their reason).
const targetRelease = async (
  db: Queryable,
  device: DeviceRow,
  target: OsVersion,
  raw: string,
): Promise<number> => {
  const { rows } = await db.query<ReleaseRow>(
    `SELECT r."id", r."variant", r."semver_major", r."semver_minor", r."semver_patch",
            r."semver_prerelease", r."revision",
            (r."is_final" AND NOT r."is_invalidated" AND r."status" = 'success') AS "usable"
       FROM "release" r JOIN "application" a ON a."id" = r."belongs_to__application"
      WHERE a."is_host" AND a."is_for__device_type" = $1
        AND r."semver_major" = $2 AND r."semver_minor" = $3 AND r."semver_patch" = $4
      ORDER BY r."id"`,
    [device.device_type_id, target.major, target.minor, target.patch],
  );
  const variant = target.variant ?? (device.os_variant === 'dev' ? 'dev' : 'prod');
  const rank = (row: ReleaseRow): number =>
    (row.variant === variant ? 0 : row.variant === '' ? 2 : 4) + (row.usable ? 0 : 1);
  const matching = rows
    .filter((row) => compareOsVersions(releaseVersion(row), target) === 0)
    .filter((row) => row.variant === variant || row.variant === '' || target.variant === null)
    .sort((a, b) => rank(a) - rank(b));
  const found = matching[0];
  if (found === undefined) {
    throw badRequest(
      `No balenaOS ${raw.trim()} release for device type ${device.device_type} in the host OS catalogue`,
    );
  }
  return found.id;
};

// What setting a device's host OS release did: the release, the one it replaced, and whether the
// device is online to act on it.
export type OsReleasePin = {
  deviceId: number;
  uuid: string;
  isOnline: boolean;
  releaseId: number;
  previousReleaseId: number | null;
};

// Tells the device which host OS release to run, inside `tx`: the caller's permission, the
// device's support for OS updates, the target version and the release rules of PATCH /v7/device.
export const pinOsRelease = async (
  tx: Queryable,
  ctx: AppContext,
  actor: Actor,
  key: DeviceKey,
  rawTarget: string,
): Promise<OsReleasePin> => {
  const device = await visibleDevice(tx, ctx, actor, key);
  // Refused before the version is judged, so a caller who may not update learns nothing more;
  // the write below checks it again, with the release rules.
  if (!device.may_update_os) throw forbidden();
  if (device.host_os_updates === false) throw badRequest(osUpdateMessages.hostNotSupported);
  const target = parseTargetVersion(rawTarget);
  const running = parseOsVersion(device.os_version);
  if (running !== null && compareOsVersions(running, target) === 0) {
    throw badRequest(`${device.device_name} already runs balenaOS ${rawTarget.trim()}`);
  }
  const releaseId = await targetRelease(tx, device, target, rawTarget);
  // The permission, the release rules and the write are those of PATCH /v7/device.
  await createActorWriter(ctx, tx, actor).update('device', device.id, {
    should_be_operated_by__release: releaseId,
  });
  return {
    deviceId: device.id,
    uuid: device.uuid,
    isOnline: device.is_connected_to_vpn,
    releaseId,
    previousReleaseId: device.pinned_release,
  };
};

export const startOsUpdate = async (
  ctx: AppContext,
  actor: Actor,
  uuid: string,
  rawTarget: string,
  // Runs the release's pin (the route's: with its audit record).
  transaction: <T>(work: (tx: Queryable) => Promise<T>) => Promise<T> = (work) =>
    ctx.db.transaction(work),
): Promise<OsUpdateAction> =>
  transaction(async (tx) => {
    const pin = await pinOsRelease(tx, ctx, actor, { uuid }, rawTarget);
    // An update is started on a device that is there to run it; otherwise nothing is kept.
    // balena-sdk cannot ask for the queued way, which the console and POST
    // /device-actions/v1/run (action os-update, with `queue`) offer.
    if (!pin.isOnline) {
      throw new ApiError(
        'device_offline',
        `The device is offline: ${pin.uuid} (queue the update for when it comes online with the console or POST /device-actions/v1/run)`,
      );
    }
    return {
      id: actionIdOf(pin.releaseId),
      action: 'resinhup',
      device: pin.uuid,
      status: 'triggered',
      parameters: { target_version: rawTarget },
    };
  });

// Whether a version a device names in its state (none: any) is the target.
const names = (named: string | undefined, target: OsVersion): boolean => {
  if (named === undefined) return true;
  const version = parseOsVersion(named);
  return version !== null && compareOsVersions(version, target) === 0;
};

const actionStatus = (
  device: DeviceRow,
  target: OsVersion,
): Pick<OsUpdateAction, 'status' | 'error'> => {
  const running = parseOsVersion(device.os_version);
  if (running !== null && compareOsVersions(running, target) >= 0) return { status: 'done' };
  const state = device.provisioning_state ?? '';
  const failed = failedState.exec(state);
  if (failed) {
    // An earlier update's failure is not this one's.
    return names(failed[1], target)
      ? { status: 'error', error: failed[2] || 'OS update failed' }
      : { status: 'triggered' };
  }
  if (updatingState.test(state) && names(namedVersion.exec(state)?.[1], target)) {
    return { status: 'in_progress' };
  }
  return { status: 'triggered' };
};

export const osUpdateStatus = async (
  ctx: AppContext,
  actor: Actor,
  uuid: string,
  actionId: string,
): Promise<OsUpdateAction> => {
  const device = await visibleDevice(ctx.db, ctx, actor, { uuid });
  const releaseId = Number(actionIdPattern.exec(actionId)?.[1] ?? Number.NaN);
  const { rows } = Number.isSafeInteger(releaseId)
    ? await ctx.db.query<ReleaseRow & { raw_version: string }>(
        `SELECT r."id", r."variant", r."semver_major", r."semver_minor", r."semver_patch",
                r."semver_prerelease", r."revision", true AS "usable", ${rawVersion('r')} AS "raw_version"
           FROM "release" r JOIN "application" a ON a."id" = r."belongs_to__application"
          WHERE r."id" = $1 AND a."is_host" AND a."is_for__device_type" = $2`,
        [releaseId, device.device_type_id],
      )
    : { rows: [] };
  const release = rows[0];
  if (release === undefined) throw notFound(`No OS update ${actionId} for device ${uuid}`);
  return {
    id: actionId,
    action: 'resinhup',
    device: device.uuid,
    parameters: { target_version: release.raw_version },
    ...actionStatus(device, releaseVersion(release)),
  };
};
