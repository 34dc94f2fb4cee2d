import { createHash } from 'node:crypto';
import { percentWaveSizes, type WaveSpec } from '@flotilla/shared/rollouts/rollout-types';

export type CandidateDevice = { id: number; uuid: string; tags: ReadonlyMap<string, string> };

// A device's stable place in the fleet's order, 0 <= x < 1: the same device lands in the same
// share of the fleet however often it is asked (and whichever process asks).
export const placeOf = (uuid: string): number =>
  createHash('sha256').update(uuid).digest().readUInt32BE(0) / 2 ** 32;

const inGroup = (wave: WaveSpec, device: CandidateDevice): boolean => {
  if ('tag' in wave) {
    const value = device.tags.get(wave.tag.key);
    return value !== undefined && (wave.tag.value === undefined || value === wave.tag.value);
  }
  return 'devices' in wave && wave.devices.includes(device.uuid);
};

// Every device's wave (position from 1) at the start: group waves take their devices first, in
// order; the percentage waves split the rest by place, each its exact share.
export const assignWaves = (
  waves: readonly WaveSpec[],
  devices: readonly CandidateDevice[],
): Map<number, number> => {
  const assigned = new Map<number, number>();
  waves.forEach((wave, index) => {
    if ('percent' in wave) return;
    for (const device of devices) {
      if (!assigned.has(device.id) && inGroup(wave, device)) assigned.set(device.id, index + 1);
    }
  });
  const rest = devices
    .filter((device) => !assigned.has(device.id))
    .map((device) => ({ id: device.id, place: placeOf(device.uuid) }))
    .sort((a, b) => a.place - b.place || a.id - b.id);
  const percentWaves = waves.flatMap((wave, index) =>
    'percent' in wave ? [{ position: index + 1, percent: wave.percent }] : [],
  );
  const sizes = percentWaveSizes(
    percentWaves.map((wave) => wave.percent),
    rest.length,
  );
  let next = 0;
  percentWaves.forEach((wave, index) => {
    for (const device of rest.slice(next, next + (sizes[index] ?? 0))) {
      assigned.set(device.id, wave.position);
    }
    next += sizes[index] ?? 0;
  });
  return assigned;
};

// The wave of a device that joined the fleet after the start: its group's, else the percentage
// wave its place falls in.
export const waveOfNewcomer = (waves: readonly WaveSpec[], device: CandidateDevice): number => {
  const group = waves.findIndex((wave) => !('percent' in wave) && inGroup(wave, device));
  if (group !== -1) return group + 1;
  const place = placeOf(device.uuid) * 100;
  const index = waves.findIndex((wave) => 'percent' in wave && place < wave.percent);
  return index === -1 ? waves.length : index + 1;
};

// The expected number of devices per wave for a plan (the console shows it before the start).
export const waveCounts = (
  waves: readonly WaveSpec[],
  devices: readonly CandidateDevice[],
): number[] => {
  const assigned = assignWaves(waves, devices);
  const counts = waves.map(() => 0);
  for (const position of assigned.values()) {
    counts[position - 1] = (counts[position - 1] ?? 0) + 1;
  }
  return counts;
};
