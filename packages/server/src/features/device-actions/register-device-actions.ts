import type { ActionResult, DeviceAction } from '@flotilla/shared/cloudlink/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { ApiError, forbidden, notFound } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { deviceOffline } from '../cloudlink/cloudlink-error.js';
import type { Cloudlink } from '../cloudlink/register-cloudlink.js';
import { sendDeviceAnswer, unreachableError } from './action-replies.js';
import { type ActionTarget, fleetVisible, permittedTargets } from './action-targets.js';
import { runOnDevices } from './run-on-devices.js';
import { appIdParam, fleetIdParam, supervisorBody } from './supervisor-body.js';
import { type SupervisorEndpoint, supervisorEndpoints } from './supervisor-endpoints.js';

// Idempotent per app, like registerCloudlink, so test harnesses may add it to any buildServer app.
const registered = new WeakSet<FastifyInstance>();

// The fleet's devices the caller may act on that have a live cloudlink; a fleet the caller
// cannot see at all is a 401.
const reachableFleetDevices = async (
  ctx: AppContext,
  cloudlink: Cloudlink,
  request: FastifyRequest,
  applicationId: number,
  action: DeviceAction,
): Promise<ActionTarget[]> => {
  const targets = await permittedTargets(ctx, request.actor, { appId: applicationId }, action);
  if (targets.length === 0 && !(await fleetVisible(ctx, request.actor, applicationId))) {
    throw forbidden();
  }
  const online = await cloudlink.connectedDevices(targets.map((target) => target.id));
  return targets.filter((target) => online.has(target.id));
};

// Whether the image is a build of a service of the device's fleet: a container action names one
// of those, never another fleet's.
const imageOfDeviceFleet = async (
  ctx: AppContext,
  deviceId: number,
  imageId: number,
): Promise<boolean> => {
  const { rows } = await ctx.db.query(
    `SELECT 1 FROM "image" i
       JOIN "service" s ON s."id" = i."is_a_build_of__service"
       JOIN "device" d ON d."belongs_to__application" = s."application"
      WHERE i."id" = $1 AND d."id" = $2`,
    [imageId, deviceId],
  );
  return rows.length > 0;
};

const proxyHandler =
  (ctx: AppContext, cloudlink: Cloudlink, endpoint: SupervisorEndpoint) =>
  async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const body = parseBody(supervisorBody, request.body);
    const pathAppId = endpoint.path.includes(':appId')
      ? parseBody(appIdParam, request.params).appId
      : undefined;
    const params = endpoint.params(body, pathAppId);

    if (body.uuid !== undefined || body.deviceId !== undefined) {
      const [target] = await permittedTargets(
        ctx,
        request.actor,
        { deviceId: body.deviceId, uuid: body.uuid, appId: body.appId },
        endpoint.action,
      );
      // Unknown, invisible and forbidden devices all answer 401, as balena's proxy does.
      if (!target) throw forbidden();
      if (
        params.imageId !== undefined &&
        !(await imageOfDeviceFleet(ctx, target.id, params.imageId))
      ) {
        throw notFound('Image not found');
      }
      let result: ActionResult;
      try {
        result = await cloudlink.sendAction(target.id, endpoint.action, params);
      } catch (error) {
        throw unreachableError(error);
      }
      return sendDeviceAnswer(reply, result);
    }

    // appId alone: every reachable device of the fleet, one {statusCode, body} each.
    const applicationId = body.appId ?? 0;
    const reachable = await reachableFleetDevices(
      ctx,
      cloudlink,
      request,
      applicationId,
      endpoint.action,
    );
    if (reachable.length === 0) throw new ApiError('device_offline', deviceOffline().message);
    const outcomes = await runOnDevices(cloudlink, reachable, endpoint.action, () => params);
    return reply.status(207).send(outcomes);
  };

// POST /supervisor/* (balena's device proxy, forwarded over the cloudlink instead of a VPN) and
// POST /application/:id/restart (application.restart). Every call needs the permission
// shared/devices/device-action-permissions.ts gives its action on the devices it reaches.
export const registerDeviceActions = (
  app: FastifyInstance,
  ctx: AppContext,
  cloudlink: Cloudlink,
): void => {
  if (registered.has(app)) return;
  registered.add(app);

  for (const endpoint of supervisorEndpoints) {
    app.post(
      `/supervisor${endpoint.path}`,
      { config: { access: 'any-actor' } },
      proxyHandler(ctx, cloudlink, endpoint),
    );
  }

  // Restarts the services on every reachable device of the fleet. 200 with each device's
  // outcome; 423 when an update lock refused on some device (the SDK's BalenaSupervisorLockedError).
  app.post(
    '/application/:id/restart',
    { config: { access: 'any-actor' } },
    async (request, reply) => {
      const { id } = parseBody(fleetIdParam, request.params);
      const reachable = await reachableFleetDevices(
        ctx,
        cloudlink,
        request,
        id,
        'restart-services',
      );
      const outcomes = await runOnDevices(cloudlink, reachable, 'restart-services', () => ({
        appId: id,
      }));
      const locked = outcomes.some((outcome) => outcome.statusCode === 423);
      return reply.status(locked ? 423 : 200).send(outcomes);
    },
  );
};
