import { rolloutGates } from '@flotilla/shared/rollouts/rollout-plan';
import { describe, expect, it } from 'vitest';
import { type DeviceObservation, judgeDevice, judgeWave } from './rollout-gates.js';

const gates = rolloutGates.parse({ soakMinutes: 10, problemGraceMinutes: 5, maxCpuPercent: 90 });
const start = new Date('2026-01-01T00:00:00Z');
const at = (minutes: number): Date => new Date(start.getTime() + minutes * 60_000);

const healthy: DeviceObservation = {
  state: 'updating',
  healthySince: null,
  problemSince: null,
  online: true,
  runsTarget: true,
  updateStatus: 'done',
  serviceStatuses: ['Running'],
  cpuUsage: 20,
  memoryPercent: 30,
  cpuTemp: 50,
  failedCheck: null,
};

describe('device gates', () => {
  it('is healthy once the target runs with every service up', () => {
    expect(judgeDevice(healthy, gates, start, at(1))).toMatchObject({
      state: 'healthy',
      healthySince: at(1),
    });
    const still = { ...healthy, state: 'healthy' as const, healthySince: at(1) };
    expect(judgeDevice(still, gates, start, at(3)).healthySince).toEqual(at(1));
  });

  it('fails a device whose problem outlasts the grace, not before', () => {
    const hot = { ...healthy, cpuUsage: 99 };
    const first = judgeDevice(hot, gates, start, at(1));
    expect(first).toMatchObject({ state: 'updating', reason: 'CPU at 99 % (limit 90 %)' });
    const later = judgeDevice({ ...hot, problemSince: first.problemSince }, gates, start, at(6));
    expect(later).toMatchObject({ state: 'failed', reason: 'CPU at 99 % (limit 90 %)' });
  });

  it('fails a device that never runs the target within the update timeout', () => {
    const slow = { ...healthy, runsTarget: false, updateStatus: 'downloading' };
    expect(judgeDevice(slow, gates, start, at(59)).state).toBe('updating');
    expect(judgeDevice(slow, gates, start, at(60)).reason).toContain('within 60 minutes');
  });
});

describe('wave gates', () => {
  const verdict = (state: 'healthy' | 'failed' | 'updating', since: Date | null = null) => ({
    state,
    reason: null,
    healthySince: since,
    problemSince: null,
  });

  it('passes after the soak, halts over the budget', () => {
    const wave = [verdict('healthy', at(0)), verdict('healthy', at(5))];
    expect(judgeWave(wave, gates, at(9))).toBe('soaking');
    expect(judgeWave(wave, gates, at(15))).toBe('passed');
    expect(judgeWave([...wave, verdict('failed')], gates, at(15))).toBe('over-budget');
    expect(judgeWave([], gates, at(0))).toBe('passed');
  });
});
