// What the server and the console share of staged rollouts without the validation schemas
// (rollout-plan.ts holds those; the console does not load zod for them).

export const rolloutStatuses = ['running', 'paused', 'halted', 'completed', 'aborted'] as const;
export type RolloutStatus = (typeof rolloutStatuses)[number];

// Rollouts in these states still hold pins on the fleet's devices; a fleet has at most one.
export const activeRolloutStatuses: readonly RolloutStatus[] = ['running', 'paused', 'halted'];

export const waveStatuses = ['pending', 'soaking', 'passed', 'skipped', 'failed'] as const;
export type WaveStatus = (typeof waveStatuses)[number];

export const rolloutDeviceStates = [
  'pending',
  'updating',
  'healthy',
  'failed',
  'rolled_back',
  // Someone set the device's pin by hand during the rollout: it leaves the rollout's hands.
  'pinned_by_hand',
] as const;
export type RolloutDeviceState = (typeof rolloutDeviceStates)[number];

export type WaveSpec =
  | { percent: number }
  | { tag: { key: string; value?: string | undefined } }
  | { devices: string[] };

export const describeWave = (wave: WaveSpec): string => {
  if ('percent' in wave) return `${wave.percent} % of the fleet`;
  if ('tag' in wave) {
    return wave.tag.value === undefined
      ? `Devices tagged ${wave.tag.key}`
      : `Devices tagged ${wave.tag.key}=${wave.tag.value}`;
  }
  return `${wave.devices.length} listed device${wave.devices.length === 1 ? '' : 's'}`;
};

// How many of `remaining` devices the percentage waves take, wave by wave (cumulative shares of
// the devices no group wave took; the last wave takes the rest).
export const percentWaveSizes = (percents: readonly number[], remaining: number): number[] => {
  let taken = 0;
  return percents.map((percent) => {
    const upTo = Math.min(remaining, Math.ceil((percent * remaining) / 100));
    const size = Math.max(0, upTo - taken);
    taken += size;
    return size;
  });
};
