import type { RolloutGates } from '@flotilla/shared/rollouts/rollout-plan';
import type { RolloutDeviceState } from '@flotilla/shared/rollouts/rollout-types';

// What the scheduler knows of one device of a soaking wave at a tick.
export type DeviceObservation = {
  state: RolloutDeviceState;
  healthySince: Date | null;
  problemSince: Date | null;
  online: boolean;
  runsTarget: boolean;
  updateStatus: string | null;
  // Statuses of the device's services of the target release.
  serviceStatuses: readonly string[];
  cpuUsage: number | null;
  memoryPercent: number | null;
  cpuTemp: number | null;
  // The newest health-check run since the wave started: whether a check failed.
  failedCheck: string | null;
};

export type DeviceVerdict = {
  state: RolloutDeviceState;
  reason: string | null;
  healthySince: Date | null;
  problemSince: Date | null;
};

const minute = 60_000;

// The device's problem now, in words, if it has one.
export const problemOf = (device: DeviceObservation, gates: RolloutGates): string | null => {
  if (!device.online) return 'Offline';
  if (device.updateStatus === 'rejected' || device.updateStatus === 'aborted') {
    return `The update was ${device.updateStatus}`;
  }
  if (device.runsTarget) {
    if (device.serviceStatuses.some((status) => status === 'Starting' || status === 'exited')) {
      return 'A service is restarting in a loop';
    }
    if (device.serviceStatuses.includes('Unhealthy')) return 'A service fails its health check';
  }
  if (device.failedCheck !== null) return `Health check failed: ${device.failedCheck}`;
  if (gates.maxCpuPercent !== undefined && (device.cpuUsage ?? 0) > gates.maxCpuPercent) {
    return `CPU at ${device.cpuUsage} % (limit ${gates.maxCpuPercent} %)`;
  }
  if (
    gates.maxMemoryPercent !== undefined &&
    (device.memoryPercent ?? 0) > gates.maxMemoryPercent
  ) {
    return `Memory at ${device.memoryPercent} % (limit ${gates.maxMemoryPercent} %)`;
  }
  if (gates.maxTemperatureC !== undefined && (device.cpuTemp ?? 0) > gates.maxTemperatureC) {
    return `Temperature at ${device.cpuTemp} °C (limit ${gates.maxTemperatureC} °C)`;
  }
  return null;
};

// One device's next state: a lasting problem fails it (for good: the verdict is recorded with
// its reason), running the target with every service up makes it healthy, and a device that
// takes longer than the update timeout fails too.
export const judgeDevice = (
  device: DeviceObservation,
  gates: RolloutGates,
  waveStartedAt: Date,
  now: Date,
): DeviceVerdict => {
  if (device.state === 'failed' || device.state === 'rolled_back') {
    return { state: device.state, reason: null, healthySince: null, problemSince: null };
  }
  const problem = problemOf(device, gates);
  if (problem !== null) {
    const since = device.problemSince ?? now;
    if (now.getTime() - since.getTime() >= gates.problemGraceMinutes * minute) {
      return { state: 'failed', reason: problem, healthySince: null, problemSince: since };
    }
    return { state: 'updating', reason: problem, healthySince: null, problemSince: since };
  }
  const running =
    device.runsTarget &&
    (device.updateStatus === null || device.updateStatus === 'done') &&
    device.serviceStatuses.every((status) => status === 'Running');
  if (running) {
    return {
      state: 'healthy',
      reason: null,
      healthySince: device.healthySince ?? now,
      problemSince: null,
    };
  }
  if (now.getTime() - waveStartedAt.getTime() >= gates.updateTimeoutMinutes * minute) {
    return {
      state: 'failed',
      reason: `Did not run the target release within ${gates.updateTimeoutMinutes} minutes`,
      healthySince: null,
      problemSince: null,
    };
  }
  return { state: 'updating', reason: null, healthySince: null, problemSince: null };
};

export type WaveVerdict = 'soaking' | 'passed' | 'over-budget';

// A wave passes once every device is healthy for the soak time or failed within the budget; it
// is over budget as soon as its failures exceed the budget, whatever the others do.
export const judgeWave = (
  verdicts: readonly DeviceVerdict[],
  gates: RolloutGates,
  now: Date,
): WaveVerdict => {
  const failed = verdicts.filter((verdict) => verdict.state === 'failed').length;
  if (verdicts.length > 0 && (failed * 100) / verdicts.length > gates.failureBudgetPercent) {
    return 'over-budget';
  }
  const soakMs = gates.soakMinutes * minute;
  const settled = verdicts.every(
    (verdict) =>
      verdict.state === 'failed' ||
      (verdict.state === 'healthy' &&
        verdict.healthySince !== null &&
        now.getTime() - verdict.healthySince.getTime() >= soakMs),
  );
  return settled ? 'passed' : 'soaking';
};
