import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { forbidden } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { recordDeviceContact } from '../heartbeat/record-device-contact.js';
import { applyStateReport } from './apply-state-report.js';
import { applyTagsReport } from './apply-tags-report.js';
import { deviceResource, findPermittedDevice, type DeviceRef } from './find-device.js';
import { findReadableFleet } from './find-fleet.js';
import { stateReportBody, tagsReportBody } from './state-report-schema.js';
import {
  deviceTargetStateV2,
  deviceTargetStateV3,
  etagOf,
  fleetTargetStateV3,
  matchesIfNoneMatch,
} from './target-state-body.js';
import { loadDeviceTarget, loadFleetTarget } from './target-state-query.js';

const uuidParams = z.object({ uuid: z.string().min(1).max(100) });
const fleetParams = z.object({ appUuid: z.string().min(1).max(100) });
const fleetQuery = z.object({ releaseUuid: z.string().max(255).optional() });

// Answers a JSON body with a strong ETag, or 304 (empty) when the client already has it.
const sendWithEtag = (request: FastifyRequest, reply: FastifyReply, body: unknown) => {
  const text = JSON.stringify(body);
  const etag = etagOf(text);
  void reply.header('ETag', etag).header('Cache-Control', 'no-cache');
  if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
    return reply.status(304).send();
  }
  return reply.type('application/json; charset=utf-8').send(text);
};

// A device reading its own target state is also a heartbeat; a user reading it is not.
const readDevice = async (ctx: AppContext, actor: Actor, uuid: string): Promise<DeviceRef> => {
  const device = await findPermittedDevice(ctx.db, actor, uuid, {
    resource: deviceResource(ctx.model),
    action: 'read',
  });
  if (actor.kind === 'device') await recordDeviceContact(ctx.db, device.id, ctx.now());
  return device;
};

// The calling device, when every uuid the body names is its own; any other uuid is a 401 and
// nothing is written.
const ownDevice = async (
  ctx: AppContext,
  actor: Actor,
  uuids: readonly string[],
): Promise<{ id: number; applicationId: number }> => {
  if (actor.kind !== 'device') throw forbidden();
  const { rows } = await ctx.db.query<{ uuid: string; applicationId: number }>(
    'SELECT "uuid", "belongs_to__application" AS "applicationId" FROM "device" WHERE "id" = $1',
    [actor.deviceId],
  );
  const own = rows[0];
  if (!own || uuids.some((uuid) => uuid !== own.uuid)) throw forbidden();
  return { id: actor.deviceId, applicationId: own.applicationId };
};

// The device protocol's state routes (wire contract sections 6 and 7.3): target state for
// devices (v3, ETag/304) and for the SDK (v2, fleet-level v3), and the device's state and tag
// reports.
export const registerDeviceState = (app: FastifyInstance, ctx: AppContext): void => {
  app.get('/device/v3/:uuid/state', { config: { access: 'any-actor' } }, async (request, reply) => {
    const { uuid } = parseBody(uuidParams, request.params);
    const device = await readDevice(ctx, request.actor, uuid);
    const inputs = await loadDeviceTarget(ctx.db, device.id);
    return sendWithEtag(request, reply, deviceTargetStateV3(inputs));
  });

  app.get('/device/v2/:uuid/state', { config: { access: 'any-actor' } }, async (request, reply) => {
    const { uuid } = parseBody(uuidParams, request.params);
    const device = await readDevice(ctx, request.actor, uuid);
    const inputs = await loadDeviceTarget(ctx.db, device.id);
    return sendWithEtag(request, reply, deviceTargetStateV2(inputs));
  });

  app.get(
    '/device/v3/fleet/:appUuid/state',
    { config: { access: 'any-actor' } },
    async (request, reply) => {
      const { appUuid } = parseBody(fleetParams, request.params);
      const { releaseUuid } = parseBody(fleetQuery, request.query);
      const fleetId = await findReadableFleet(ctx.db, ctx.model, request.actor, appUuid);
      // The SDK sends ?releaseUuid= (empty) for "the fleet's target release".
      const inputs = await loadFleetTarget(ctx.db, fleetId, releaseUuid || undefined);
      return sendWithEtag(request, reply, fleetTargetStateV3(inputs));
    },
  );

  app.patch('/device/v3/state', { config: { access: 'device' } }, async (request, reply) => {
    const body = parseBody(stateReportBody, request.body);
    const device = await ownDevice(ctx, request.actor, Object.keys(body));
    const now = ctx.now();
    for (const report of Object.values(body)) {
      await applyStateReport(ctx.db, device, report, now);
    }
    await recordDeviceContact(ctx.db, device.id, now);
    return reply.status(200).send();
  });

  app.patch('/device/v3/tags', { config: { access: 'device' } }, async (request, reply) => {
    const body = parseBody(tagsReportBody, request.body);
    const device = await ownDevice(ctx, request.actor, Object.keys(body));
    for (const tags of Object.values(body)) await applyTagsReport(ctx.db, device.id, tags);
    await recordDeviceContact(ctx.db, device.id, ctx.now());
    return reply.status(200).send();
  });
};
