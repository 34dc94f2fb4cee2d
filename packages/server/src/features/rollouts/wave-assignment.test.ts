import { describe, expect, it } from 'vitest';
import {
  assignWaves,
  type CandidateDevice,
  waveCounts,
  waveOfNewcomer,
} from './wave-assignment.js';

const fleet = (count: number): CandidateDevice[] =>
  Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    uuid: index.toString(16).padStart(32, '0'),
    tags: new Map(index % 5 === 0 ? [['ring', 'canary']] : []),
  }));

describe('wave assignment', () => {
  it('gives each percentage wave its exact share of 10,000 devices', () => {
    const counts = waveCounts(
      [{ percent: 1 }, { percent: 10 }, { percent: 50 }, { percent: 100 }],
      fleet(10_000),
    );
    expect(counts).toEqual([100, 900, 4000, 5000]);
  });

  it('takes group waves first, then splits the rest', () => {
    const devices = fleet(10);
    const assigned = assignWaves(
      [
        { tag: { key: 'ring', value: 'canary' } },
        { devices: [devices[1]?.uuid ?? ''] },
        { percent: 100 },
      ],
      devices,
    );
    expect(assigned.get(1)).toBe(1);
    expect(assigned.get(6)).toBe(1);
    expect(assigned.get(2)).toBe(2);
    expect([...assigned.values()].filter((wave) => wave === 3)).toHaveLength(7);
  });

  it('places a newcomer by its group, else by its stable place in the fleet', () => {
    const waves = [{ tag: { key: 'ring' } }, { percent: 50 }, { percent: 100 }];
    const [canary, plain] = fleet(2);
    if (!canary || !plain) throw new Error('no devices');
    expect(waveOfNewcomer(waves, canary)).toBe(1);
    const wave = waveOfNewcomer(waves, plain);
    expect([2, 3]).toContain(wave);
    expect(waveOfNewcomer(waves, plain)).toBe(wave);
  });
});
