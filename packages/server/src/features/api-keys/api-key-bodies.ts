import { z } from 'zod';

const maxId = 2_147_483_647;

export const idParam = z.coerce.number().int().positive().max(maxId);

// `null` means "never expires"; the SDK sends ISO strings, older clients epoch milliseconds.
const expiryDate = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((value, context): Date | null | undefined => {
    if (value === undefined || value === null) return value;
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) {
      context.addIssue({ code: 'custom', message: 'Invalid date' });
      return z.NEVER;
    }
    return date;
  });

const keyDetails = {
  name: z.string().trim().max(255).nullable().optional(),
  description: z.string().max(1024).nullable().optional(),
  expiryDate,
};

export const keyDetailsBody = z.object(keyDetails);

export const userKeyBody = z.object({
  ...keyDetails,
  name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(255),
});

// The role each actor type's keys carry in balena's API.
export const roleOfActorType = {
  application: 'provisioning-api-key',
  device: 'device-api-key',
  user: 'named-user-api-key',
} as const;

export const actorKeyBody = z
  .object({
    ...keyDetails,
    actorType: z.enum(['application', 'device', 'user']),
    actorTypeId: idParam,
    roles: z.array(z.string()).min(1),
  })
  .refine((body) => body.roles.length === 1 && body.roles[0] === roleOfActorType[body.actorType], {
    path: ['roles'],
    message: 'roles must be the one role of the actor type',
  });

export const deviceKeyBody = z.object({
  ...keyDetails,
  // The device agent's key exchange: register this key instead of minting one.
  apiKey: z.string().min(1).max(256).optional(),
});
