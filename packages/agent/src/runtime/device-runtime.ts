import type { ActionParams, DeviceAction } from '@flotilla/shared/cloudlink/messages';
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
  | 'Stopping'
  | 'Stopped'
  | 'exited'
  | 'Unknown';

export type UpdateStatus =
  'rejected' | 'downloading' | 'downloaded' | 'applying changes' | 'aborted' | 'done';

export type DeviceStatus = 'Idle' | 'Downloading' | 'Installing' | 'Stopping';

export type ServiceReport = {
  image: string;
  status: ServiceStatus;
  download_progress: number | null;
};

export type ReleaseReport = {
  update_status?: UpdateStatus;
  services: Record<string, ServiceReport>;
};

export type AppReport = {
  release_uuid?: string;
  releases: Record<string, ReleaseReport>;
};

// The device-level part of PATCH /device/v3/state (metrics travel separately, less often).
export type DeviceInfo = {
  status: DeviceStatus;
  os_version: string;
  os_variant?: string;
  supervisor_version: string;
  ip_address: string;
  mac_address: string;
  apps: Record<string, AppReport>;
};

// Memory and storage in MB, temperature in °C, usage in percent (integers, as the API stores).
export type DeviceMetrics = {
  cpu_usage: number;
  cpu_temp: number | null;
  memory_usage: number;
  memory_total: number;
  storage_usage: number;
  storage_total: number;
  storage_block_device?: string;
  is_undervolted: boolean;
};

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
