import type { ActionParams } from '@flotilla/shared/cloudlink/messages';
import type { HostUpdateActionId } from '@flotilla/shared/devices/device-action-permissions';
import {
  isHostUpdateQueued,
  maxQueuedPerDevice,
  type RunOutcome,
} from '@flotilla/shared/devices/queued-actions';
import { httpStatusOf } from '@flotilla/shared/errors/error-codes';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import type { Queryable } from '../../infra/db/database.js';
import { ApiError, badRequest, conflict } from '../../infra/errors/api-error.js';
import { CloudlinkError, deviceOffline } from '../cloudlink/cloudlink-error.js';
import type { Cloudlink } from '../cloudlink/register-cloudlink.js';
import { permittedTargets } from '../device-actions/action-targets.js';
import { outcomeOfResult } from './deliver-queued.js';
import { pinHostUpdate } from './host-updates.js';
import { enqueue } from './queue-store.js';
import type { RunBody } from './queued-action-body.js';

const concurrency = 50;
const hourMs = 3_600_000;
const serviceActions = new Set(['start-service', 'stop-service', 'restart-service']);

type Target = { id: number; appId: number; imageOk: boolean };

// Each target's fleet (its actions name it) and, for a service action, whether the image is a
// build of a service of that fleet.
const targetsOf = async (
  ctx: AppContext,
  ids: readonly number[],
  imageId: number | undefined,
): Promise<Target[]> => {
  const { rows } = await ctx.db.query<{ id: number; app_id: number; image_ok: boolean }>(
    `SELECT d."id", d."belongs_to__application" AS "app_id",
            EXISTS (SELECT 1 FROM "image" i JOIN "service" s ON s."id" = i."is_a_build_of__service"
                     WHERE i."id" = $2 AND s."application" = d."belongs_to__application")
              AS "image_ok"
       FROM "device" d WHERE d."id" = ANY($1::integer[]) ORDER BY d."id"`,
    [ids, imageId ?? null],
  );
  return rows.map((row) => ({ id: row.id, appId: row.app_id, imageOk: row.image_ok }));
};

const queuedOutcome = (deviceId: number, queuedActionId: number): RunOutcome => ({
  deviceId,
  outcome: 'queued',
  statusCode: null,
  message: null,
  queuedActionId,
});

const tooMany = `The device already has ${maxQueuedPerDevice} queued actions`;

const failed = (deviceId: number, message: string, statusCode: number | null): RunOutcome => ({
  deviceId,
  outcome: 'failed',
  statusCode,
  message,
  queuedActionId: null,
});

const queueOff = (target: Target): RunOutcome => failed(target.id, deviceOffline().message, 503);

// One device's writes, undone alone when refused (the other devices' stay).
const inSavepoint = async <T>(tx: Queryable, work: () => Promise<T>): Promise<T> => {
  await tx.query('SAVEPOINT "device_action"');
  try {
    const result = await work();
    await tx.query('RELEASE SAVEPOINT "device_action"');
    return result;
  } catch (error) {
    await tx.query('ROLLBACK TO SAVEPOINT "device_action"');
    throw error;
  }
};

// Runs a call's writes in one transaction (the route's: with its audit record).
export type RunWrite = <T>(work: (tx: Queryable) => Promise<T>) => Promise<T>;

// Runs the action on every device the caller may act on: at once on the online ones ("done" or
// "failed" with the device's answer), and on the offline ones either queued (when `queue` is
// given) or "failed" as balena answers. Devices the caller cannot see are "failed" as not found;
// a device it sees but may not act on refuses the whole call (401), nothing run or queued. The
// call's writes (actions queued, releases set) are made together through `write`, after the
// messages are sent; a call that writes nothing does not call it.
export const runOrQueue = async (
  ctx: AppContext,
  cloudlink: Cloudlink,
  actor: Actor,
  body: RunBody,
  write: RunWrite,
): Promise<RunOutcome[]> => {
  const isService = serviceActions.has(body.action);
  if (body.action === 'os-update' && body.params.targetVersion === undefined) {
    throw badRequest('params.targetVersion is required');
  }
  if (body.action === 'supervisor-update' && body.params.releaseId === undefined) {
    throw badRequest('params.releaseId is required');
  }
  if (isService && body.params.imageId === undefined && body.params.serviceName === undefined) {
    throw badRequest('params.imageId or params.serviceName is required');
  }
  const permitted = await permittedTargets(ctx, actor, { deviceIds: body.deviceIds }, body.action);
  const targets = new Map(
    (
      await targetsOf(
        ctx,
        permitted.map((target) => target.id),
        body.params.imageId,
      )
    ).map((target) => [target.id, target]),
  );
  const online = await cloudlink.connectedDevices([...targets.keys()]);
  const now = ctx.now();

  const paramsOf = (target: Target): ActionParams => {
    const { force, imageId, serviceName } = body.params;
    if (isService) return { appId: target.appId, imageId, serviceName };
    if (body.action === 'restart-services' || body.action === 'purge') {
      return { appId: target.appId, force };
    }
    if (body.action === 'blink') return {};
    return { force: force ?? false };
  };

  const expiresAt = (queue: NonNullable<RunBody['queue']>): Date =>
    new Date(now.getTime() + queue.expiresInHours * hourMs);
  const actorId = actor.kind === 'anonymous' ? null : actor.actorId;

  const queueOn = async (tx: Queryable, target: Target): Promise<RunOutcome> => {
    if (!body.queue) return queueOff(target);
    const queued = await enqueue(
      tx,
      {
        deviceId: target.id,
        action: body.action,
        params: paramsOf(target),
        now,
        expiresAt: expiresAt(body.queue),
        actorId,
      },
      maxQueuedPerDevice,
    );
    if (!queued) return failed(target.id, tooMany, 409);
    return queuedOutcome(target.id, queued.id);
  };

  // An OS or supervisor update sets the release at once, with the caller's permission and the
  // release rules: done on an online device; on an offline one queued with the release it
  // replaced (both or neither), or refused as balena does without `queue` (nothing set).
  const updateOn = async (
    tx: Queryable,
    target: Target,
    action: HostUpdateActionId,
  ): Promise<RunOutcome> => {
    const isOnline = online.has(target.id);
    const { queue } = body;
    try {
      return await inSavepoint(tx, async () => {
        const pin = await pinHostUpdate(tx, ctx, actor, target.id, action, body.params);
        if (isOnline || !queue) {
          return {
            deviceId: target.id,
            outcome: 'done',
            statusCode: null,
            message: null,
            queuedActionId: null,
          };
        }
        const queued = await enqueue(
          tx,
          { deviceId: target.id, action, params: pin, now, expiresAt: expiresAt(queue), actorId },
          maxQueuedPerDevice,
        );
        // Nothing is set when nothing can wait for the device.
        if (!queued) throw conflict(tooMany);
        return queuedOutcome(target.id, queued.id);
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return failed(target.id, error.message, httpStatusOf[error.code]);
    }
  };

  // What a device's action writes (a release set, an action queued), done after the messages to
  // the online devices are sent, all in the one transaction `write` gives.
  type Write = (tx: Queryable) => Promise<RunOutcome>;

  const runOn = async (deviceId: number): Promise<RunOutcome | Write> => {
    const target = targets.get(deviceId);
    if (!target) return failed(deviceId, 'Device not found', 404);
    if (isService && body.params.imageId !== undefined && !target.imageOk) {
      return failed(deviceId, 'Image not found', 404);
    }
    const { action } = body;
    if (isHostUpdateQueued(action)) {
      if (!online.has(deviceId) && !body.queue) {
        return failed(deviceId, deviceOffline().message, 503);
      }
      return (tx) => updateOn(tx, target, action);
    }
    if (!online.has(deviceId)) return body.queue ? (tx) => queueOn(tx, target) : queueOff(target);
    try {
      const result = outcomeOfResult(
        await cloudlink.sendAction(deviceId, action, paramsOf(target)),
      );
      return {
        deviceId,
        outcome: result.status,
        statusCode: result.resultStatus,
        message: result.message,
        queuedActionId: null,
      };
    } catch (error) {
      if (!(error instanceof CloudlinkError)) throw error;
      // Gone between the look-up and the send: it gets the action when it is back.
      if (error.failure === 'offline') {
        return body.queue ? (tx) => queueOn(tx, target) : queueOff(target);
      }
      return failed(deviceId, error.message, 503);
    }
  };

  const planned = new Array<RunOutcome | Write>(body.deviceIds.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < body.deviceIds.length) {
      const index = next++;
      const deviceId = body.deviceIds[index];
      if (deviceId !== undefined) planned[index] = await runOn(deviceId);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, body.deviceIds.length) }, worker));
  if (!planned.some((step) => typeof step === 'function')) {
    return planned.filter((step): step is RunOutcome => typeof step !== 'function');
  }
  return write(async (tx) => {
    const outcomes: RunOutcome[] = [];
    for (const step of planned) outcomes.push(typeof step === 'function' ? await step(tx) : step);
    return outcomes;
  });
};
