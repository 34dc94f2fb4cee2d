import { canRunArchitecture } from '@flotilla/shared/device-types/cpu-architectures';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { isAcceptableApiKey } from '../../infra/auth/api-key-tokens.js';
import { requireUserSessionMay } from '../../infra/auth/session-rules.js';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest, forbidden } from '../../infra/errors/api-error.js';
import { maxRowId, parseBody } from '../../infra/http/validate.js';
import { mapDatabaseError } from '../../infra/odata/database-errors.js';
import { userMayOnFleet } from '../api-keys/api-key-access.js';
import { createApiKey, registerGivenApiKey } from '../api-keys/store-api-key.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const registrationBody = z.object({
  user: z.number().int().min(-maxRowId).max(maxRowId).optional(),
  application: z.number().int().positive().max(maxRowId),
  uuid: z
    .string()
    .regex(/^[0-9a-f]{32}([0-9a-f]{30})?$/, 'must be 32 or 62 lower-case hex characters'),
  device_type: z.string().min(1).max(100),
  api_key: z.string().refine(isAcceptableApiKey, 'is not an acceptable API key').optional(),
  supervisor_version: z.string().max(100).optional(),
  os_version: z.string().max(100).optional(),
  os_variant: z.string().max(100).optional(),
  mac_address: z.string().max(1000).optional(),
});

// A provisioning key registers into its own fleet only; a user needs device creation rights there.
const mayRegister = async (
  db: Queryable,
  actor: Actor,
  applicationId: number,
): Promise<boolean> => {
  if (actor.kind === 'application') return actor.applicationId === applicationId;
  if (actor.kind === 'user')
    return userMayOnFleet(db, actor.userId, applicationId, 'device', 'create');
  return false;
};

type FleetAndType = {
  fleetArch: string | null;
  deviceTypeId: number | null;
  deviceArch: string | null;
};

const fleetAndDeviceType = async (
  db: Queryable,
  applicationId: number,
  slug: string,
): Promise<FleetAndType> => {
  const { rows } = await db.query<FleetAndType>(
    `SELECT
       (SELECT c."slug" FROM "application" a JOIN "device_type" dt ON dt."id" = a."is_for__device_type"
          JOIN "cpu_architecture" c ON c."id" = dt."is_of__cpu_architecture" WHERE a."id" = $1) AS "fleetArch",
       dt."id" AS "deviceTypeId", c."slug" AS "deviceArch"
     FROM (SELECT 1) one
     LEFT JOIN "device_type_alias" dta ON dta."is_referenced_by__alias" = $2
     LEFT JOIN "device_type" dt ON dt."id" = dta."device_type"
     LEFT JOIN "cpu_architecture" c ON c."id" = dt."is_of__cpu_architecture"
     LIMIT 1`,
    [applicationId, slug],
  );
  return rows[0] ?? { fleetArch: null, deviceTypeId: null, deviceArch: null };
};

// POST /device/register: what balena-register-device (and so the SDK and our agent) calls with a
// provisioning key. Answers 201 {id, uuid, api_key}; a known uuid is a 409.
export const registerDeviceRegistration = (app: FastifyInstance, ctx: AppContext): void => {
  app.post('/device/register', { config: { access: 'any-actor' } }, async (request, reply) => {
    const body = parseBody(registrationBody, request.body);
    // The answer holds the new device's key.
    requireUserSessionMay(request.actor, 'manage-api-keys');
    if (!(await mayRegister(ctx.db, request.actor, body.application))) {
      throw forbidden('You may not register devices in this fleet');
    }
    const found = await fleetAndDeviceType(ctx.db, body.application, body.device_type);
    if (found.fleetArch === null) throw forbidden();
    if (found.deviceTypeId === null || found.deviceArch === null) {
      throw badRequest(`Invalid device type: ${body.device_type}`);
    }
    if (!canRunArchitecture(found.deviceArch, found.fleetArch)) {
      throw badRequest(
        `A ${body.device_type} device (${found.deviceArch}) cannot run this fleet's ${found.fleetArch} releases`,
      );
    }
    const deviceTypeId = found.deviceTypeId;
    try {
      const register = async (tx: Queryable) => {
        const { rows } = await tx.query<{ id: number; actor: number }>(
          // The owner the client names is kept only when that user has a role on the fleet.
          `INSERT INTO "device" ("uuid", "device_name", "belongs_to__application", "is_of__device_type",
             "supervisor_version", "os_version", "os_variant", "mac_address", "belongs_to__user")
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8,
             (SELECT fa."user" FROM "fleet_access" fa WHERE fa."user" = $9 AND fa."application" = $3 LIMIT 1))
           RETURNING "id", "actor"`,
          [
            body.uuid,
            body.uuid.slice(0, 7),
            body.application,
            deviceTypeId,
            body.supervisor_version ?? null,
            body.os_version ?? null,
            body.os_variant ?? null,
            body.mac_address ?? null,
            body.user ?? null,
          ],
        );
        const device = rows[0];
        if (!device) throw new Error('device insert returned nothing');
        const details = { name: 'device key', description: 'Created at registration' };
        let apiKey = body.api_key;
        if (apiKey) await registerGivenApiKey(tx, device.actor, apiKey, details);
        else apiKey = await createApiKey(tx, device.actor, details);
        return { id: device.id, uuid: body.uuid, api_key: apiKey };
      };
      const result = await recordedTransaction(ctx.db, request, ctx.now, register, (device) => ({
        status: 201,
        fleetId: body.application,
        deviceId: device.id,
      }));
      request.log.info(
        {
          device: result.uuid,
          deviceId: result.id,
          fleetId: body.application,
          deviceType: body.device_type,
          by: request.actor.kind,
        },
        'device registered',
      );
      return reply.status(201).send(result);
    } catch (error) {
      throw mapDatabaseError(error);
    }
  });
};
