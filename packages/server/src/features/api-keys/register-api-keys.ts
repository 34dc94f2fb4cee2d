import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { isAcceptableApiKey } from '../../infra/auth/api-key-tokens.js';
import { requireSessionMay } from '../../infra/auth/session-rules.js';
import { ApiError, forbidden } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { recordRouteChange } from '../audit-log/audit-route-records.js';
import { requireFreshAuthentication } from '../auth/fresh-authentication.js';
import {
  actorKeyBody,
  deviceKeyBody,
  idParam,
  keyDetailsBody,
  userKeyBody,
} from './api-key-bodies.js';
import { deviceKeyTarget, exchangeDeviceKey, provisioningTarget } from './api-key-access.js';
import { refuseUserKeyForSamlAccount } from './saml-account-rule.js';
import { type ApiKeyDetails, createApiKey, registerGivenApiKey } from './store-api-key.js';

// Keys are answered as a JSON string, like balena's API (the SDK accepts JSON or text).
const sendKey = (reply: FastifyReply, key: string): FastifyReply =>
  reply.type('application/json; charset=utf-8').send(JSON.stringify(key));

const futureOnly = (details: ApiKeyDetails, now: Date): ApiKeyDetails => {
  if (details.expiryDate && details.expiryDate.getTime() <= now.getTime()) {
    throw new ApiError('bad_request', 'expiryDate: must be in the future');
  }
  return details;
};

const detailsOf = (body: z.output<typeof keyDetailsBody>, now: Date): ApiKeyDetails =>
  futureOnly(
    { name: body.name ?? null, description: body.description ?? null, expiryDate: body.expiryDate },
    now,
  );

const userActorOf = (actor: Actor): Extract<Actor, { kind: 'user' }> => {
  if (actor.kind !== 'user') throw forbidden();
  requireSessionMay(actor, 'manage-api-keys');
  return actor;
};

// Minting API keys: named user keys, fleet provisioning keys and device keys.
// Listing, renaming and revoking go through /v7/api_key.
export const registerApiKeys = (app: FastifyInstance, ctx: AppContext): void => {
  // The key and its audit record commit together.
  const mint = (
    request: FastifyRequest,
    actorId: number,
    details: ApiKeyDetails,
    fleetId?: number,
  ) =>
    ctx.db.transaction(async (tx) => {
      const key = await createApiKey(tx, actorId, details);
      await recordRouteChange(tx, request, ctx.now(), fleetId === undefined ? {} : { fleetId });
      return key;
    });

  // A user key is the user's whole access: only a recent password mints one.
  app.post('/api-key/user/full', { config: { access: 'user' } }, async (request, reply) => {
    const user = userActorOf(request.actor);
    const details = detailsOf(parseBody(userKeyBody, request.body), ctx.now());
    // Before the password check: confirming the password would not help.
    await refuseUserKeyForSamlAccount(ctx.db, user.userId);
    await requireFreshAuthentication(request, ctx);
    return sendKey(reply, await mint(request, user.actorId, details));
  });

  const createForActorType = async (request: FastifyRequest): Promise<string> => {
    const actor = request.actor;
    const parsed = parseBody(actorKeyBody, request.body);
    const details = detailsOf(parsed, ctx.now());
    switch (parsed.actorType) {
      case 'application':
        return mint(request, await provisioningTarget(ctx.db, actor, parsed.actorTypeId), details);
      case 'device':
        return mint(request, await deviceKeyTarget(ctx.db, actor, parsed.actorTypeId), details);
      case 'user': {
        const user = userActorOf(actor);
        if (user.userId !== parsed.actorTypeId) throw forbidden();
        await refuseUserKeyForSamlAccount(ctx.db, user.userId);
        await requireFreshAuthentication(request, ctx);
        return mint(request, user.actorId, details);
      }
    }
  };
  for (const version of ['v1', 'v2']) {
    app.post(`/api-key/${version}`, { config: { access: 'any-actor' } }, async (request, reply) =>
      sendKey(reply, await createForActorType(request)),
    );
  }

  app.post(
    '/api-key/application/:id/provisioning',
    { config: { access: 'user' } },
    async (request, reply) => {
      const { id } = parseBody(z.object({ id: idParam }), request.params);
      const details = detailsOf(parseBody(keyDetailsBody, request.body), ctx.now());
      const fleetActor = await provisioningTarget(ctx.db, request.actor, id);
      return sendKey(reply, await mint(request, fleetActor, details, id));
    },
  );

  app.post(
    '/api-key/device/:deviceId/device-key',
    { config: { access: 'any-actor' } },
    async (request, reply) => {
      const { deviceId } = parseBody(z.object({ deviceId: idParam }), request.params);
      const body = parseBody(deviceKeyBody, request.body);
      const details = detailsOf(body, ctx.now());
      if (body.apiKey !== undefined && !isAcceptableApiKey(body.apiKey)) {
        throw new ApiError('bad_request', 'apiKey: must be 16 to 128 letters, digits, - or _');
      }
      if (request.actor.kind === 'application') {
        if (body.apiKey === undefined) {
          throw forbidden('A provisioning key only registers the key a new device brings');
        }
        const provisioning = request.actor;
        const given = body.apiKey;
        await ctx.db.transaction(async (tx) => {
          await exchangeDeviceKey(tx, provisioning, deviceId, given, details);
          await recordRouteChange(tx, request, ctx.now());
        });
        return sendKey(reply, body.apiKey);
      }
      const deviceActor = await deviceKeyTarget(ctx.db, request.actor, deviceId);
      if (body.apiKey === undefined) {
        return sendKey(reply, await mint(request, deviceActor, details));
      }
      const given = body.apiKey;
      await ctx.db.transaction(async (tx) => {
        await registerGivenApiKey(tx, deviceActor, given, details);
        await recordRouteChange(tx, request, ctx.now());
      });
      return sendKey(reply, body.apiKey);
    },
  );
};
