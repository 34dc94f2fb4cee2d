import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest, forbidden } from '../../infra/errors/api-error.js';
import { maxRowId, parseBody } from '../../infra/http/validate.js';
import { provisioningTarget } from '../api-keys/api-key-access.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';
import { createApiKey } from '../api-keys/store-api-key.js';

// The SDK's os.getConfig options (balena-sdk ImgConfigOptions); appUpdatePollInterval is in minutes.
export const configRequest = z.object({
  appId: z.coerce.number().int().positive().max(maxRowId),
  deviceType: z.string().min(1).max(100).optional(),
  version: z.string().max(100).optional(),
  network: z.enum(['ethernet', 'wifi']).optional(),
  appUpdatePollInterval: z.coerce
    .number()
    .int()
    .min(1)
    .max(60 * 24)
    .optional(),
  provisioningKeyName: z.string().max(200).optional(),
  provisioningKeyDescription: z.string().max(1000).optional(),
  provisioningKeyExpiryDate: z.string().datetime({ offset: true }).optional(),
  wifiSsid: z.string().max(200).optional(),
  wifiKey: z.string().max(200).optional(),
  developmentMode: z.coerce.boolean().optional(),
});

const defaultPollMinutes = 10;

// The public base URL devices should use: how the client reached us.
const apiEndpoint = (request: FastifyRequest): string =>
  `${request.protocol}://${request.headers.host ?? `${request.hostname}`}`;

export type ConfigRequest = z.infer<typeof configRequest>;

// The config.json a device (balenaOS or the Flotilla agent) needs to join a fleet, with a fresh
// provisioning key. Only users who may create provisioning keys on the fleet get one. The key is
// minted through `db` (a route's transaction, with its audit record).
export const provisioningConfig = async (
  ctx: AppContext,
  request: FastifyRequest,
  input: ConfigRequest,
  db: Queryable = ctx.db,
) => {
  const fleetActor = await provisioningTarget(ctx.db, request.actor, input.appId);
  const { rows } = await ctx.db.query<{ slug: string; fleetType: string }>(
    `SELECT a."slug", dt."slug" AS "fleetType" FROM "application" a
       JOIN "device_type" dt ON dt."id" = a."is_for__device_type" WHERE a."id" = $1`,
    [input.appId],
  );
  const fleet = rows[0];
  if (!fleet) throw forbidden();
  let deviceType = fleet.fleetType;
  if (input.deviceType) {
    const found = await ctx.db.query<{ slug: string }>(
      `SELECT dt."slug" FROM "device_type_alias" a JOIN "device_type" dt ON dt."id" = a."device_type"
         WHERE a."is_referenced_by__alias" = $1`,
      [input.deviceType],
    );
    const slug = found.rows[0]?.slug;
    if (!slug) throw badRequest(`Invalid device type: ${input.deviceType}`);
    deviceType = slug;
  }
  const expiry = input.provisioningKeyExpiryDate ? new Date(input.provisioningKeyExpiryDate) : null;
  if (expiry && expiry.getTime() <= ctx.now().getTime()) {
    throw badRequest('provisioningKeyExpiryDate must be in the future');
  }
  const provisioningKey = await createApiKey(db, fleetActor, {
    name: input.provisioningKeyName ?? 'config.json download',
    description: input.provisioningKeyDescription ?? `Provisioning key for ${fleet.slug}`,
    expiryDate: expiry,
  });
  const actor = request.actor;
  const pollMinutes = input.appUpdatePollInterval ?? defaultPollMinutes;
  return {
    applicationId: input.appId,
    applicationName: fleet.slug,
    deviceType,
    ...(actor.kind === 'user' ? { userId: actor.userId } : {}),
    appUpdatePollInterval: pollMinutes * 60_000,
    apiEndpoint: apiEndpoint(request),
    // balenaOS reads the provisioning key as `apiKey`; the Flotilla agent accepts both names.
    apiKey: provisioningKey,
    provisioningApiKey: provisioningKey,
    listenPort: 48484,
    ...(input.version ? { osVersion: input.version } : {}),
    ...(input.network === 'wifi' && input.wifiSsid
      ? { wifiSsid: input.wifiSsid, wifiKey: input.wifiKey ?? '' }
      : {}),
    developmentMode: input.developmentMode ?? false,
  };
};

// GET/POST /download-config: that config.json as JSON. Either way a provisioning key is minted,
// so a GET is a change too: the key and its audit record (placed in the fleet) commit together.
export const registerDownloadConfig = (app: FastifyInstance, ctx: AppContext): void => {
  const download = (request: FastifyRequest, input: ConfigRequest) =>
    recordedTransaction(
      ctx.db,
      request,
      ctx.now,
      (tx) => provisioningConfig(ctx, request, input, tx),
      { fleetId: input.appId },
    );
  app.get('/download-config', { config: { access: 'user' } }, (request) =>
    download(request, parseBody(configRequest, request.query)),
  );
  app.post('/download-config', { config: { access: 'user' } }, (request) =>
    download(request, parseBody(configRequest, request.body)),
  );
};
