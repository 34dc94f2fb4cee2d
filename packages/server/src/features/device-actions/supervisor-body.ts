import { z } from 'zod';

const maxInteger = 2_147_483_647;

// Ids arrive as numbers from the SDK; application.purge sends data.appId as a string.
const id = z.union([
  z.number().int().positive().max(maxInteger),
  z
    .string()
    .regex(/^[1-9]\d{0,9}$/, 'must be a positive integer')
    .transform(Number)
    .refine((value) => value <= maxInteger, 'is too large'),
]);

const flag = z.union([
  z.boolean(),
  z.enum(['true', 'false']).transform((value) => value === 'true'),
]);

// The body balena's /supervisor/* proxy takes: a target (one device by uuid or deviceId, or a
// whole fleet by appId alone), the supervisor method, and `data` for the supervisor endpoint.
export const supervisorBody = z
  .object({
    uuid: z.string().min(1).max(62).optional(),
    deviceId: id.optional(),
    appId: id.optional(),
    method: z.string().max(10).optional(),
    data: z
      .object({
        force: flag.optional(),
        appId: id.optional(),
        imageId: id.optional(),
        serviceName: z.string().min(1).max(255).optional(),
      })
      .optional(),
  })
  .refine(
    (body) => body.uuid !== undefined || body.deviceId !== undefined || body.appId !== undefined,
    'uuid, deviceId or appId is required',
  );

export type SupervisorBody = z.output<typeof supervisorBody>;

export const appIdParam = z.object({ appId: id });
export const fleetIdParam = z.object({ id });
