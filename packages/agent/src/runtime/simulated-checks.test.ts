import { describe, expect, it } from 'vitest';
import { hasUnsyncedClock, type SimulatedState, simulatedChecks } from './simulated-checks.js';

const state = (overrides: Partial<SimulatedState> = {}): SimulatedState => ({
  name: 'misty-river',
  deviceType: 'raspberrypi4-64',
  osVersion: 'balenaOS 6.0.13',
  ipAddress: '192.168.1.20',
  macAddress: 'DC:A6:32:01:02:03',
  uptimeMs: 60_000,
  metrics: {
    cpu_usage: 10,
    cpu_temp: 50,
    memory_usage: 1000,
    memory_total: 4000,
    storage_usage: 1000,
    storage_total: 10_000,
    is_undervolted: false,
  },
  services: [],
  recentLog: [],
  ...overrides,
});

const failing = (overrides: Partial<SimulatedState>) =>
  simulatedChecks(state(overrides))
    .checks.filter((check) => !check.success)
    .map((check) => check.name);

describe('simulated health checks', () => {
  it('fails the checks the simulated state breaks', () => {
    const healthy = ['misty-river', 'a', 'b', 'c'].find((name) => !hasUnsyncedClock(name)) ?? '';
    expect(failing({ name: healthy })).toEqual([]);
    expect(
      failing({
        name: healthy,
        metrics: { ...state().metrics, storage_usage: 9500, is_undervolted: true },
        services: [
          {
            name: 'web',
            serviceId: 1,
            wantsRunning: true,
            status: 'exited',
            environment: {},
          },
        ],
      }),
    ).toEqual(['check_disk_space', 'check_services_running', 'check_under_voltage']);
  });

  it('gives about a third of the devices a clock that never synchronises, the same each time', () => {
    const names = Array.from({ length: 300 }, (_, index) => `device-${index}`);
    const unsynced = names.filter(hasUnsyncedClock);
    expect(unsynced.length).toBeGreaterThan(60);
    expect(unsynced.length).toBeLessThan(140);
    const name = unsynced[0] ?? '';
    expect(failing({ name })).toEqual(['check_timesync']);
  });
});
