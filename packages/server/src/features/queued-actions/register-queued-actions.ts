import type { QueuedAction } from '@flotilla/shared/devices/queued-actions';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { conflict, forbidden, notFound } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { resourceOf } from '../../infra/odata/compile-context.js';
import { createPermissionFilter } from '../../infra/odata/permissions.js';
import { createSqlParams } from '../../infra/odata/sql-params.js';
import { registerPeriodicTask } from '../../infra/scheduling/periodic-task.js';
import { recordedTransaction, recordRouteChange } from '../audit-log/audit-route-records.js';
import type { Cloudlink } from '../cloudlink/register-cloudlink.js';
import { permittedTargets } from '../device-actions/action-targets.js';
import { createDelivery } from './deliver-queued.js';
import { cancelQueued, expireDue, findQueued, listForDevice, listWaiting } from './queue-store.js';
import { cancelParams, listQuery, runBody } from './queued-action-body.js';
import { type RunWrite, runOrQueue } from './run-or-queue.js';

// How much of a device's history of queued actions the device page shows.
const historyLimit = 50;

export type QueuedActionsOptions = { sweepIntervalMs: number };
export const defaultQueuedActionsOptions: QueuedActionsOptions = { sweepIntervalMs: 30_000 };

// The devices (of one device or of a fleet) the actor may read.
const readableDevices = async (
  ctx: AppContext,
  actor: Actor,
  filter: { deviceId?: number; fleetId?: number },
): Promise<number[]> => {
  const params = createSqlParams(actor);
  const readable = createPermissionFilter(params)(resourceOf(ctx.model, 'device'), 'read', '"d"');
  if (readable === null) return [];
  const where =
    filter.deviceId === undefined
      ? `"d"."belongs_to__application" = ${params.add(filter.fleetId ?? 0)}::integer`
      : `"d"."id" = ${params.add(filter.deviceId)}::integer`;
  const { rows } = await ctx.db.query<{ id: number }>(
    `SELECT "d"."id" FROM "device" "d" WHERE ${where} AND ${readable}`,
    params.values(),
  );
  return rows.map((row) => row.id);
};

// Actions queued for offline devices (POST /device-actions/v1/run with `queue`): delivered over
// the device's cloudlink, in the order they were queued, when it connects again (and by a sweep
// that also expires them). balena's /supervisor/* proxy is left as it is: an offline device
// still answers 503 there, so balena-sdk and balena-cli see what balena answers.
export const registerQueuedActions = (
  app: FastifyInstance,
  ctx: AppContext,
  cloudlink: Cloudlink,
  options: QueuedActionsOptions = defaultQueuedActionsOptions,
): void => {
  const delivery = createDelivery(ctx, cloudlink, app.log);
  cloudlink.onConnected((deviceId) => void delivery.deliver(deviceId));
  registerPeriodicTask(app, {
    run: () => delivery.sweep(),
    intervalMs: options.sweepIntervalMs,
    failure: 'queued actions: sweep failed',
  });
  app.addHook('onClose', () => delivery.settled());

  const config = { access: 'user' } as const;
  app.post('/device-actions/v1/run', { config }, async (request, reply) => {
    const body = parseBody(runBody, request.body);
    // What the call writes (actions queued, releases set) commits with its audit record; a call
    // that only sends messages to online devices is recorded once answered.
    const write: RunWrite = (work) => recordedTransaction(ctx.db, request, ctx.now, work);
    return reply.send(await runOrQueue(ctx, cloudlink, request.actor, body, write));
  });

  // A device's queued actions and their outcomes (deviceId), or what waits for the devices of a
  // fleet (fleetId), for the devices table's marks.
  app.get('/device-actions/v1/queued', { config }, async (request, reply) => {
    const query = parseBody(listQuery, request.query);
    const devices = await readableDevices(ctx, request.actor, query);
    const now = ctx.now();
    let actions: QueuedAction[] = [];
    const [device] = devices;
    if (query.deviceId !== undefined) {
      if (device === undefined) throw notFound('Device not found');
      // The history says "expired" as soon as it is, not at the next sweep.
      await expireDue(ctx.db, now, device);
      actions = await listForDevice(ctx.db, device, historyLimit);
    } else if (devices.length > 0) {
      actions = await listWaiting(ctx.db, devices, now);
    }
    return reply.send(actions);
  });

  // Cancelling needs the same right as the action itself.
  app.post('/device-actions/v1/queued/:id/cancel', { config }, async (request, reply) => {
    const { id } = parseBody(cancelParams, request.params);
    const queued = await findQueued(ctx.db, id);
    if (!queued) throw notFound('Queued action not found');
    const [target] = await permittedTargets(
      ctx,
      request.actor,
      { deviceId: queued.deviceId },
      queued.action,
    );
    if (!target) throw notFound('Queued action not found');
    // The cancellation and its audit record commit together.
    const cancelled = await ctx.db.transaction(async (tx) => {
      if (!(await cancelQueued(tx, id, ctx.now(), request.actor))) {
        throw conflict(`The action is no longer queued (${queued.status})`);
      }
      await recordRouteChange(tx, request, ctx.now(), { deviceId: queued.deviceId });
      return findQueued(tx, id);
    });
    if (!cancelled) throw forbidden();
    return reply.send(cancelled);
  });
};
