import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { parseBody } from '../../infra/http/validate.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';
import { deviceUrlsBaseOf } from '../device-url/device-url-host.js';
import { osUpdateStatus, startOsUpdate } from './os-update-action.js';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// `actions.<deviceUrlsBase>` with any port (balena-sdk always calls it over https on 443; a
// proxy in front forwards it here).
export const actionsHostPattern = (base: string): RegExp => {
  const name = base.replace(/:\d+$/, '').replace(/\.$/, '');
  return new RegExp(`^actions\\.${escapeRegExp(name)}\\.?(?::\\d+)?$`, 'i');
};

const deviceParams = z.object({ uuid: z.string().regex(/^[0-9a-f]{32}(?:[0-9a-f]{30})?$/) });
const statusParams = deviceParams.extend({ actionId: z.string().min(1).max(100) });
const startBody = z.object({
  parameters: z.object({ target_version: z.string().trim().min(1).max(100) }),
});

const start =
  (ctx: AppContext) =>
  async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const { uuid } = parseBody(deviceParams, request.params);
    const { parameters } = parseBody(startBody, request.body);
    // The release set and the audit record commit together.
    const action = await startOsUpdate(
      ctx,
      request.actor,
      uuid,
      parameters.target_version,
      (work) => recordedTransaction(ctx.db, request, ctx.now, work),
    );
    return reply.send(action);
  };

const status =
  (ctx: AppContext) =>
  async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const { uuid, actionId } = parseBody(statusParams, request.params);
    return reply.send(await osUpdateStatus(ctx, request.actor, uuid, actionId));
  };

// balena's actions service (only the OS update, "resinhup"), answered by this server on the host
// balena-sdk calls, `actions.<deviceUrlsBase>`, and on the app's own host under /actions.
// v1 starts an update the caller waits for, v2 a detached one: here both are detached. The
// status of an update is GET /v1/:uuid/:actionId.
export const registerActions = (app: FastifyInstance, ctx: AppContext): void => {
  const host = actionsHostPattern(deviceUrlsBaseOf(ctx.config.deviceUrlsBase, []));
  const config = { access: 'any-actor' } as const;
  for (const prefix of ['', '/actions']) {
    const constraints = prefix === '' ? { host } : {};
    for (const version of ['v1', 'v2']) {
      app.post(`${prefix}/${version}/:uuid/resinhup`, { config, constraints }, start(ctx));
    }
  }
  // On the app's host, GET /actions/v1/:uuid/:id is the diagnostics feature's route, which hands
  // OS update ids over to osUpdateStatus.
  app.get('/v1/:uuid/:actionId', { config, constraints: { host } }, status(ctx));
};
