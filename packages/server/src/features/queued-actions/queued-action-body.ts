import { maxQueueExpiryHours, queueableActions } from '@flotilla/shared/devices/queued-actions';
import { z } from 'zod';
import { maxRowId } from '../../infra/http/validate.js';

const id = z.number().int().positive().max(maxRowId);
// As many devices as the console's largest batch.
export const maxRunDevices = 500;

// POST /device-actions/v1/run: one action on several devices; with `queue`, the offline ones
// queue it until their cloudlink comes back (or the expiry passes).
export const runBody = z
  .object({
    action: z.enum(queueableActions),
    deviceIds: z
      .array(id)
      .min(1, 'deviceIds must name at least one device')
      .max(maxRunDevices, `deviceIds names at most ${maxRunDevices} devices`)
      .refine((ids) => new Set(ids).size === ids.length, 'deviceIds must not repeat a device'),
    params: z
      .object({
        force: z.boolean().optional(),
        imageId: id.optional(),
        serviceName: z.string().min(1).max(255).optional(),
        // os-update: the balenaOS version, as balena's resinhup route takes it.
        targetVersion: z.string().trim().min(1).max(100).optional(),
        // supervisor-update: the supervisor release.
        releaseId: id.optional(),
      })
      .strict()
      .default({}),
    queue: z
      .object({ expiresInHours: z.number().int().min(1).max(maxQueueExpiryHours) })
      .strict()
      .optional(),
  })
  .strict();
export type RunBody = z.output<typeof runBody>;

export const listQuery = z
  .object({
    deviceId: z.coerce.number().int().positive().max(maxRowId).optional(),
    fleetId: z.coerce.number().int().positive().max(maxRowId).optional(),
  })
  .refine(
    (query) => (query.deviceId === undefined) !== (query.fleetId === undefined),
    'Either deviceId or fleetId is required',
  );

export const cancelParams = z.object({ id: z.coerce.number().int().positive().max(maxRowId) });
