import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type AppContext, messageBusOf } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { forbidden } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';
import { splitReport } from './apply-state-report.js';
import { applyTagsReport } from './apply-tags-report.js';
import { deviceResource, findPermittedDevice, type DeviceRef } from './find-device.js';
import { findReadableFleet } from './find-fleet.js';
import { createStateReportCache } from './state-report-cache.js';
import { createStateReportWriter, type StateReportWriter } from './state-report-writer.js';
import { stateReportBody, tagsReportBody } from '@flotilla/shared/device-protocol/state-report-v3';
import {
  deviceTargetStateV3,
  fleetTargetStateV3,
} from '@flotilla/shared/device-protocol/target-state-v3-build';
import { deviceTargetStateV2, etagOf, matchesIfNoneMatch } from './target-state-body.js';
import { createTargetStateCache, type TargetStateCache } from './target-state-cache.js';
import {
  cachedNotModified,
  deviceTargetV3Route,
  notModifiedHeaders,
  targetStateFastPoll,
} from './target-state-fast-poll.js';
import { addFastRoute } from '../../infra/http/fast-answers.js';
import { loadDeviceTarget, loadFleetTarget } from './target-state-query.js';

const uuidParams = z.object({ uuid: z.string().min(1).max(100) });
const fleetParams = z.object({ appUuid: z.string().min(1).max(100) });
const fleetQuery = z.object({ releaseUuid: z.string().max(255).optional() });

const sendNotModified = (reply: FastifyReply, etag: string) =>
  reply.headers(notModifiedHeaders(etag)).status(304).send();

// Answers a JSON body with a strong ETag, or 304 (empty) when the client already has it.
const sendWithEtag = (request: FastifyRequest, reply: FastifyReply, text: string, etag: string) => {
  if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
    return sendNotModified(reply, etag);
  }
  return reply
    .header('ETag', etag)
    .header('Cache-Control', 'no-cache')
    .type('application/json; charset=utf-8')
    .send(text);
};

const sendJson = (request: FastifyRequest, reply: FastifyReply, body: unknown) => {
  const text = JSON.stringify(body);
  return sendWithEtag(request, reply, text, etagOf(text));
};

// A device reading its own target state is also a heartbeat; a user reading it is not.
const readDevice = async (ctx: AppContext, actor: Actor, uuid: string): Promise<DeviceRef> => {
  const device = await findPermittedDevice(ctx.db, actor, uuid, {
    resource: deviceResource(ctx.model),
    action: 'read',
  });
  if (actor.kind === 'device') ctx.contacts.record(device.id, ctx.now());
  return device;
};

// GET /device/v3/:uuid/state. A device presenting the ETag this process last served it, when
// nothing the target is built from changed since (target-state-cache.ts), gets 304 without a
// database read; anything else builds the target, and a device's ETag is remembered.
const deviceTargetV3 = async (
  ctx: AppContext,
  cache: TargetStateCache,
  request: FastifyRequest,
  reply: FastifyReply,
) => {
  const { uuid } = parseBody(uuidParams, request.params);
  const actor = request.actor;
  const notModified = cachedNotModified(ctx, cache, actor, uuid, request.headers['if-none-match']);
  if (notModified !== undefined) return sendNotModified(reply, notModified);
  const ticket = cache.begin();
  const device = await readDevice(ctx, actor, uuid);
  const inputs = await loadDeviceTarget(ctx.db, device.id);
  const text = JSON.stringify(deviceTargetStateV3(inputs));
  const etag = etagOf(text);
  if (actor.kind === 'device') {
    const keys = {
      deviceId: device.id,
      fleetId: inputs.app.id,
      releaseId: inputs.targetReleaseId,
      host: inputs.hostApp
        ? { releaseId: inputs.hostApp.release.id, appId: inputs.hostApp.app.id }
        : null,
    };
    cache.store(ticket, uuid, keys, etag);
  }
  return sendWithEtag(request, reply, text, etag);
};

// The calling device, when every uuid the body names is its own; any other uuid is a 401 and
// nothing is written.
const ownDevice = async (
  ctx: AppContext,
  actor: Actor,
  uuids: readonly string[],
): Promise<{ id: number }> => {
  if (actor.kind !== 'device') throw forbidden();
  const { rows } = await ctx.db.query<{ uuid: string }>(
    'SELECT "uuid" FROM "device" WHERE "id" = $1',
    [actor.deviceId],
  );
  const own = rows[0];
  if (!own || uuids.some((uuid) => uuid !== own.uuid)) throw forbidden();
  return { id: actor.deviceId };
};

// PATCH /device/v3/state: reports of many devices share one statement and one commit, answered
// after it (state-report-writer.ts); none when it repeats the last one this process applied
// (state-report-cache.ts); the metrics and the contact are batched (features/heartbeat).
const stateReport = async (
  ctx: AppContext,
  reports: StateReportWriter,
  request: FastifyRequest,
  reply: FastifyReply,
) => {
  const body = parseBody(stateReportBody, request.body);
  const actor = request.actor;
  if (actor.kind !== 'device') throw forbidden();
  const entries = Object.entries(body);
  // Every uuid named must be the device's own: two different ones never are.
  if (entries.length > 1) throw forbidden();
  const now = ctx.now();
  const [entry] = entries;
  if (!entry) {
    await ownDevice(ctx, actor, []);
    ctx.contacts.record(actor.deviceId, now);
    return reply.status(200).send();
  }
  const [uuid, report] = entry;
  const { columns, metrics } = splitReport(report);
  const device = { id: actor.deviceId, uuid };
  const own = await reports.apply({
    device,
    columns,
    apps: report.apps,
    agentProfile: report.agent_profile,
    now,
  });
  if (!own) throw forbidden();
  ctx.contacts.record(actor.deviceId, now, metrics);
  return reply.status(200).send();
};

// The device protocol's state routes: target state for
// devices (v3, ETag/304) and for the SDK (v2, fleet-level v3), and the device's state and tag
// reports.
export const registerDeviceState = (app: FastifyInstance, ctx: AppContext): void => {
  const cache = createTargetStateCache(messageBusOf(ctx));
  const reported = createStateReportCache(messageBusOf(ctx));
  const reports = createStateReportWriter(ctx.db, reported);
  app.addHook('onClose', async () => {
    cache.close();
    reported.close();
  });

  // Target states are read by supervisors, agents and the SDK, never rendered by a browser
  // (create-app.ts, deviceProtocol: the browser-only headers are left out).
  const targetRoute = { config: { access: 'any-actor', deviceProtocol: true } } as const;
  app.get(deviceTargetV3Route, targetRoute, (request, reply) =>
    deviceTargetV3(ctx, cache, request, reply),
  );
  addFastRoute(app, targetStateFastPoll(ctx, cache));

  app.get('/device/v2/:uuid/state', targetRoute, async (request, reply) => {
    const { uuid } = parseBody(uuidParams, request.params);
    const device = await readDevice(ctx, request.actor, uuid);
    const inputs = await loadDeviceTarget(ctx.db, device.id);
    return sendJson(request, reply, deviceTargetStateV2(inputs));
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
      return sendJson(request, reply, fleetTargetStateV3(inputs));
    },
  );

  app.patch('/device/v3/state', { config: { access: 'device' } }, (request, reply) =>
    stateReport(ctx, reports, request, reply),
  );

  app.patch('/device/v3/tags', { config: { access: 'device' } }, async (request, reply) => {
    const body = parseBody(tagsReportBody, request.body);
    const device = await ownDevice(ctx, request.actor, Object.keys(body));
    // The tags and their audit record commit together.
    await recordedTransaction(
      ctx.db,
      request,
      ctx.now,
      async (tx) => {
        for (const tags of Object.values(body)) await applyTagsReport(tx, device.id, tags);
      },
      { deviceId: device.id },
    );
    ctx.contacts.record(device.id, ctx.now());
    return reply.status(200).send();
  });
};
