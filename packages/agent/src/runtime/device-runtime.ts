import type { ActionParams, DeviceAction } from '@flotilla/shared/cloudlink/messages';
import type {
  AppReportV3,
  DeviceReportV3,
  ReleaseReportV3,
  ServiceReportV3,
} from '@flotilla/shared/device-protocol/state-report-v3';
import type { OpenShell, Shell, ShellIo } from './shell.js';
import type { DeviceTarget } from '../target-types.js';

// One line of the log stream (POST /device/v2/:uuid/log-stream).
export type LogLine = {
  message: string;
  // Milliseconds since the epoch.
  timestamp: number;
  isSystem?: boolean;
  isStdErr?: boolean;
  serviceId?: number;
};

// Container statuses as the supervisor names them; 'Unknown' is the host agent's honest answer
// when it has no way to observe a service.
export type ServiceStatus =
  | 'Downloading'
  | 'Downloaded'
  | 'Installing'
  | 'Installed'
  | 'Starting'
  | 'Running'
  // Running, with a failing health check.
  | 'Unhealthy'
  | 'Stopping'
  | 'Stopped'
  | 'exited'
  | 'Unknown';

export type DeviceStatus = 'Idle' | 'Downloading' | 'Installing' | 'Stopping';

// Fields of a state report the agent always sends, never null.
type Sent<T, K extends keyof T> = { [P in K]-?: NonNullable<T[P]> };

// The parts of PATCH /device/v3/state (the protocol's report types) with the statuses the agent
// uses.
export type ServiceReport = Required<ServiceReportV3> & { status: ServiceStatus };

export type ReleaseReport = Omit<ReleaseReportV3, 'services'> & {
  services: Record<string, ServiceReport>;
};

export type AppReport = Omit<AppReportV3, 'releases'> & {
  releases: Record<string, ReleaseReport>;
};

// The device-level part of the report (metrics travel separately, less often).
export type DeviceInfo = Sent<
  DeviceReportV3,
  'os_version' | 'supervisor_version' | 'ip_address' | 'mac_address'
> &
  Partial<Sent<DeviceReportV3, 'os_variant'>> &
  // A host OS update's step and progress (null once none runs).
  Partial<Pick<DeviceReportV3, 'provisioning_state' | 'provisioning_progress'>> &
  // A Flotilla agent's own description (runtime/agent-profile.ts); simulated devices, which
  // play balenaOS devices, send none.
  Partial<Pick<DeviceReportV3, 'agent_profile'>> & {
    status: DeviceStatus;
    apps: Record<string, AppReport>;
  };

// Memory and storage in MB, temperature in °C, usage in percent (integers, as the API stores).
export type DeviceMetrics = Sent<
  DeviceReportV3,
  | 'cpu_usage'
  | 'memory_usage'
  | 'memory_total'
  | 'storage_usage'
  | 'storage_total'
  | 'is_undervolted'
> &
  Required<Pick<DeviceReportV3, 'cpu_temp'>> &
  Partial<Sent<DeviceReportV3, 'storage_block_device'>>;

// An answer for the cloudlink; `then` asks the agent to power-cycle after replying.
export type ActionOutcome = {
  status: number;
  body: unknown;
  then?: PowerAction;
};

export type PowerAction = 'reboot' | 'shutdown';

// How a runtime talks back to the agent that hosts it.
export type RuntimeEvents = {
  log(line: LogLine): void;
  // Something in info() changed: the agent schedules a (throttled) state report.
  changed(): void;
  // Fetch the target state now; `force` re-applies it through update locks.
  pollNow(force: boolean): void;
  // The device restarts itself (into a new host OS): the agent reconnects once it is back.
  reboot?(): void;
};

// The device behind the agent: simulated in memory, or the Linux host the agent runs on. The
// agent owns the protocol (polls, reports, logs, cloudlink); the runtime owns the device.
export type DeviceRuntime = {
  // Boot: start what the last target asked for and announce it in the logs.
  start(events: RuntimeEvents): void;
  // Stop timers (the simulator stopping, or the device losing power).
  stop(): void;
  applyTarget(target: DeviceTarget, force: boolean): void;
  handleAction(action: DeviceAction, params: ActionParams): Promise<ActionOutcome>;
  info(): DeviceInfo;
  metrics(): Promise<DeviceMetrics>;
  // Resolves 'back' once a reboot completed (the agent reconnects), or 'off' when the device
  // stays down.
  powerCycle(action: PowerAction): Promise<'back' | 'off'>;
  // A shell for a web terminal on the host OS or in a service (runtime/shell.ts).
  openShell?: OpenShell;
  // The public device URL's tunnel to the device's web server; `uuid` names the device.
  openTunnel?(io: ShellIo, uuid: string): Shell | { error: string };
};

export const ok = (body: unknown = 'OK'): ActionOutcome => ({ status: 200, body });

export const lockedOutcome = (): ActionOutcome => ({
  status: 423,
  body: { Data: '', Error: 'Updates are locked: an update lock is held by an application' },
});

export const failure = (status: number, message: string): ActionOutcome => ({
  status,
  body: { Data: '', Error: message },
});
