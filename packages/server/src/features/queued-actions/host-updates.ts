import type { HostUpdateActionId } from '@flotilla/shared/devices/device-action-permissions';
import type { QueuedAction } from '@flotilla/shared/devices/queued-actions';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest } from '../../infra/errors/api-error.js';
import { createActorWriter } from '../../infra/odata/actor-writes.js';
import { rawVersion } from '../../model/definitions/releases.js';
import { pinOsRelease } from '../actions/os-update-action.js';
import { recordAuditEvent } from '../audit-log/audit-writer.js';
import type { Outcome } from './queue-store.js';

// OS and supervisor updates queued for an offline device: the release is set at once (the device
// picks it up on its first poll once back), and the queued action records the release it
// replaced, so an expiry or a cancellation can put it back while the device has not come back.

export type HostUpdatePin = {
  releaseId: number;
  previousReleaseId: number | null;
  version: string;
};

const columnOf: Record<HostUpdateActionId, string> = {
  'os-update': '"should_be_operated_by__release"',
  'supervisor-update': '"should_be_managed_by__release"',
};

const releaseVersionOf = async (tx: Queryable, releaseId: number): Promise<string | undefined> => {
  const { rows } = await tx.query<{ version: string }>(
    `SELECT ${rawVersion('r')} AS "version" FROM "release" r WHERE r."id" = $1`,
    [releaseId],
  );
  return rows[0]?.version;
};

// Sets the device's release with the caller's permission and the release rules of PATCH
// /v7/device, inside `tx`; throws (an ApiError) when the caller or the rules refuse it.
export const pinHostUpdate = async (
  tx: Queryable,
  ctx: AppContext,
  actor: Actor,
  deviceId: number,
  action: HostUpdateActionId,
  params: { targetVersion?: string | undefined; releaseId?: number | undefined },
): Promise<HostUpdatePin> => {
  if (action === 'os-update') {
    const target = params.targetVersion ?? '';
    const pin = await pinOsRelease(tx, ctx, actor, { id: deviceId }, target);
    const version = (await releaseVersionOf(tx, pin.releaseId)) ?? target;
    return { releaseId: pin.releaseId, previousReleaseId: pin.previousReleaseId, version };
  }
  const releaseId = params.releaseId ?? 0;
  const version = await releaseVersionOf(tx, releaseId);
  if (version === undefined) throw badRequest(`No supervisor release ${releaseId}`);
  const { rows } = await tx.query<{ previous: number | null }>(
    `SELECT "should_be_managed_by__release" AS "previous" FROM "device" WHERE "id" = $1`,
    [deviceId],
  );
  await createActorWriter(ctx, tx, actor).update('device', deviceId, {
    should_be_managed_by__release: releaseId,
  });
  return { releaseId, previousReleaseId: rows[0]?.previous ?? null, version };
};

const pinnedRelease = async (
  tx: Queryable,
  queued: QueuedAction & { action: HostUpdateActionId },
): Promise<number | null | undefined> => {
  const { rows } = await tx.query<{ pinned: number | null }>(
    `SELECT ${columnOf[queued.action]} AS "pinned" FROM "device" WHERE "id" = $1`,
    [queued.deviceId],
  );
  return rows[0]?.pinned;
};

const what = (action: HostUpdateActionId): string =>
  action === 'os-update' ? 'OS release' : 'supervisor release';

// The device is back: it reads the release on its next poll, so the update is delivered.
export const deliveredHostUpdate = async (
  tx: Queryable,
  queued: QueuedAction & { action: HostUpdateActionId },
): Promise<Outcome> => {
  const pinned = await pinnedRelease(tx, queued);
  return {
    status: 'done',
    resultStatus: null,
    message:
      pinned === queued.params.releaseId
        ? `The device is online and picks up the ${what(queued.action)} on its next poll`
        : `The device is online; its ${what(queued.action)} was changed since this update was queued`,
  };
};

// An OS or supervisor update that stopped waiting (expired or cancelled) puts the release it
// replaced back, unless someone set another since: that choice is left alone. Either way the
// audit log records it, in the caller's transaction. Answers the message for the queued action.
export const revertHostUpdate = async (
  tx: Queryable,
  queued: QueuedAction & { action: HostUpdateActionId },
  how: { reason: 'expired' | 'cancelled'; actor: Actor; now: Date },
): Promise<string> => {
  const column = columnOf[queued.action];
  const releaseId = queued.params.releaseId ?? null;
  const previous = queued.params.previousReleaseId ?? null;
  const { rowCount } = await tx.query(
    `UPDATE "device" SET ${column} = $3 WHERE "id" = $1 AND ${column} IS NOT DISTINCT FROM $2`,
    [queued.deviceId, releaseId, previous],
  );
  const reverted = (rowCount ?? 0) > 0;
  await recordAuditEvent(tx, {
    action: 'device_action',
    resource: `queued ${queued.action} ${how.reason}`,
    resourceId: queued.id,
    deviceId: queued.deviceId,
    actor: how.actor,
    details: { queuedActionId: queued.id, releaseId, previousReleaseId: previous, reverted },
    now: how.now,
  });
  const stopped = how.reason === 'expired' ? 'Expired before the device came online' : 'Cancelled';
  return reverted
    ? `${stopped}; the previous ${what(queued.action)} was put back`
    : `${stopped}; the ${what(queued.action)} was changed since, so it was left as it is`;
};
