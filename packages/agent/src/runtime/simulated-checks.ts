import type {
  CheckResult,
  ChecksReport,
  DiagnoseReport,
} from '@flotilla/shared/diagnostics/diagnostics';
import type { DeviceMetrics } from './device-runtime.js';
import { diagnoseVersion, diskFullRatio, memoryLowRatio } from './health-checks.js';
import type { SimulatedService } from './simulated-services.js';

// Health checks and diagnostics of a simulated device, from its simulated state. Some devices
// (a third, chosen by name so that a device keeps its answer) have a clock that never
// synchronises, so the console shows failing checks next to passing ones.

export type SimulatedState = {
  name: string;
  deviceType: string;
  osVersion: string;
  ipAddress: string;
  macAddress: string;
  uptimeMs: number;
  metrics: DeviceMetrics;
  services: readonly SimulatedService[];
  recentLog: readonly string[];
};

const nameHash = (name: string): number => {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash;
};

export const hasUnsyncedClock = (name: string): boolean => nameHash(name) % 3 === 0;

const percent = (ratio: number): string => `${Math.round(ratio * 100)}%`;

export const simulatedChecks = (state: SimulatedState): ChecksReport => {
  const { metrics } = state;
  const used = metrics.storage_total > 0 ? metrics.storage_usage / metrics.storage_total : 0;
  const free = metrics.memory_total > 0 ? 1 - metrics.memory_usage / metrics.memory_total : 0;
  const stopped = state.services.filter(
    (service) => service.wantsRunning && service.status !== 'Running',
  );
  const unsynced = hasUnsyncedClock(state.name);
  const checks: CheckResult[] = [
    {
      name: 'check_disk_space',
      success: used < diskFullRatio,
      status: `Data partition ${percent(used)} used (simulated)`,
    },
    {
      name: 'check_memory',
      success: free >= memoryLowRatio,
      status: `${percent(free)} of memory available (simulated)`,
    },
    {
      name: 'check_timesync',
      success: !unsynced,
      status: unsynced
        ? 'The clock has not synchronised: NTP servers unreachable (simulated)'
        : 'The clock is synchronised (simulated)',
    },
    {
      name: 'check_services_running',
      success: stopped.length === 0,
      status:
        stopped.length === 0
          ? 'Every service that should run is running'
          : `Not running: ${stopped.map((service) => `${service.name} (${service.status})`).join(', ')}`,
    },
    {
      name: 'check_cloud_connectivity',
      success: true,
      status: 'Connected to the server (this check arrived over the cloudlink)',
    },
    {
      name: 'check_under_voltage',
      success: !metrics.is_undervolted,
      status: metrics.is_undervolted ? 'Under-voltage detected (simulated)' : 'No under-voltage',
    },
  ];
  return { diagnose_version: diagnoseVersion, checks };
};

export const simulatedDiagnoseReport = (state: SimulatedState): DiagnoseReport => {
  const minutes = Math.floor(state.uptimeMs / 60_000);
  const lines = [
    '=== Flotilla simulator ===',
    'This device is simulated: the report below comes from its simulated state.',
    '',
    '=== Device ===',
    `Name: ${state.name}`,
    `Device type: ${state.deviceType}`,
    `OS: ${state.osVersion}`,
    `Uptime: ${minutes} min`,
    '',
    '=== Network interfaces ===',
    `eth0: ${state.ipAddress} (${state.macAddress})`,
    '',
    '=== Disk and memory ===',
    `Storage: ${state.metrics.storage_usage} of ${state.metrics.storage_total} MB used`,
    `Memory: ${state.metrics.memory_usage} of ${state.metrics.memory_total} MB used`,
    `CPU: ${state.metrics.cpu_usage}%${state.metrics.cpu_temp === null ? '' : `, ${state.metrics.cpu_temp} °C`}`,
    '',
    '=== Services ===',
    ...(state.services.length === 0
      ? ['(none)']
      : state.services.map((service) => `${service.name}: ${service.status}`)),
    '',
    '=== Recent supervisor log ===',
    ...(state.recentLog.length === 0 ? ['(empty)'] : state.recentLog),
  ];
  return { diagnose_version: diagnoseVersion, stdout: `${lines.join('\n')}\n` };
};
