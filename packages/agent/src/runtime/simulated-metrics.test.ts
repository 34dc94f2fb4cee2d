import { describe, expect, it } from 'vitest';
import { seededRandom } from '../clock.js';
import { WanderingMetrics } from './simulated-metrics.js';

const profile = {
  memoryTotalMb: 3920,
  storageTotalMb: 29_000,
  storageBlockDevice: '/dev/mmcblk0',
  mayUndervolt: false,
};

// A day of readings at the server's finest resolution (one a minute).
const day = (seed: number) => {
  const metrics = new WanderingMetrics(profile, seededRandom(seed));
  return Array.from({ length: 1440 }, () => metrics.next(2));
};

describe('simulated metrics: a plausible, varied history', () => {
  it('stays within what a device can report', () => {
    for (const reading of day(1)) {
      expect(reading.cpu_usage).toBeGreaterThanOrEqual(1);
      expect(reading.cpu_usage).toBeLessThanOrEqual(98);
      expect(reading.cpu_temp).toBeGreaterThanOrEqual(30);
      expect(reading.cpu_temp).toBeLessThanOrEqual(75);
      expect(reading.memory_usage).toBeLessThanOrEqual(reading.memory_total);
      expect(reading.storage_usage).toBeLessThanOrEqual(reading.storage_total);
    }
  });

  it('moves between readings, with peaks into the error band (above 80%) now and then', () => {
    const cpu = day(2).map((reading) => reading.cpu_usage);
    expect(new Set(cpu).size).toBeGreaterThan(30);
    const peaks = cpu.filter((value) => value > 80).length;
    expect(peaks).toBeGreaterThan(0);
    // Peaks pass: most of the day is spent near the device's baseline.
    expect(peaks).toBeLessThan(cpu.length / 4);
  });

  it('gives devices different baselines', () => {
    const average = (seed: number) =>
      day(seed).reduce((sum, reading) => sum + reading.memory_usage, 0) / 1440;
    const averages = [3, 4, 5, 6].map(average);
    expect(Math.max(...averages) - Math.min(...averages)).toBeGreaterThan(200);
  });
});
