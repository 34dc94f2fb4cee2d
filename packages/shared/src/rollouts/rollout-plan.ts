import { z } from 'zod';
import type { WaveSpec } from './rollout-types.js';

// A staged rollout's plan: the waves a fleet's devices are split into, and the gates every wave
// must pass before the next one starts, validated at the server's edge.

export const maxWaves = 10;
export const maxListedDevices = 1000;

const uuid = z.string().regex(/^[0-9a-f]{7,62}$/, 'Device uuids are lowercase hexadecimal');

// One object with exactly one of its fields, so a mistake is named by its field (a union of
// shapes would only say "invalid input").
export const waveSpec = z
  .strictObject({
    percent: z.number().int('Wave percentages are whole numbers').min(1).max(100).optional(),
    tag: z
      .object({
        key: z.string().trim().min(1, 'Name the tag').max(100),
        value: z.string().max(200).optional(),
      })
      .optional(),
    devices: z.array(uuid).min(1, 'List at least one device').max(maxListedDevices).optional(),
  })
  .refine(
    (wave) =>
      [wave.percent, wave.tag, wave.devices].filter((field) => field !== undefined).length === 1,
    'A wave is either a percentage, a tag or a list of devices',
  )
  .transform((wave): WaveSpec => {
    if (wave.percent !== undefined) return { percent: wave.percent };
    if (wave.tag !== undefined) return { tag: wave.tag };
    return { devices: wave.devices ?? [] };
  });

export const rolloutGates = z.object({
  // How long every device of a wave must stay healthy before the next wave starts.
  soakMinutes: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60)
    .default(30),
  // The share of a wave's devices that may fail before the rollout halts.
  failureBudgetPercent: z.number().min(0).max(100).default(2),
  // How long a device may take to run the target before it counts as failed.
  updateTimeoutMinutes: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(60),
  // How long a problem (offline, crash loop, failing check, metric over its limit) must last
  // before the device counts as failed: a single bad report is not a verdict.
  problemGraceMinutes: z
    .number()
    .int()
    .min(0)
    .max(24 * 60)
    .default(5),
  maxCpuPercent: z.number().int().min(1).max(100).optional(),
  maxMemoryPercent: z.number().int().min(1).max(100).optional(),
  maxTemperatureC: z.number().int().min(1).max(150).optional(),
  // Over budget, pin the failing wave's devices back to the release the fleet came from.
  rollbackOnHalt: z.boolean().default(true),
});
export type RolloutGates = z.infer<typeof rolloutGates>;

const percentsRise = (waves: readonly WaveSpec[]): boolean => {
  let last = 0;
  for (const wave of waves) {
    if (!('percent' in wave)) continue;
    if (wave.percent <= last) return false;
    last = wave.percent;
  }
  return true;
};

const groupsFirst = (waves: readonly WaveSpec[]): boolean => {
  const firstPercent = waves.findIndex((wave) => 'percent' in wave);
  return firstPercent === -1 || waves.slice(firstPercent).every((wave) => 'percent' in wave);
};

export const rolloutPlan = z.object({
  targetRelease: z.number().int().min(1).max(2_147_483_647),
  waves: z
    .array(waveSpec)
    .min(1, 'Plan at least one wave')
    .max(maxWaves, `Plan at most ${maxWaves} waves`)
    .refine(groupsFirst, 'Device groups (tag or list) come before the percentage waves')
    .refine(percentsRise, 'Wave percentages must rise from wave to wave')
    .refine(
      (waves) => waves.some((wave) => 'percent' in wave && wave.percent === 100),
      'The last wave must reach 100 % of the fleet',
    ),
  gates: rolloutGates.default(rolloutGates.parse({})),
});
export type RolloutPlan = z.infer<typeof rolloutPlan>;
