import type { JsonObject } from '@flotilla/sdk/resources/field-types';
import { isInLocalMode, localModeBlock } from '@flotilla/shared/devices/local-mode';
import {
  type ContainerActionId,
  containerActionPermissions,
  type DeviceActionId,
  deviceActionPermissions,
  isSupervisorAction,
  type SupervisorActionId,
  supervisorActionOf,
} from '@flotilla/shared/devices/device-action-permissions';
import { actionReach } from '@flotilla/shared/devices/queued-actions';
import type { ConfigVariable } from '../../device/device-rows.js';

// When a device action is allowed. Pure: the screens pass the
// permission answer of useFleetRole and the device's state; the permission each action needs is
// the server's (shared/devices/device-action-permissions.ts).

// Texts of the error catalogue and of the container rules.
export const actionMessages = {
  offline: 'Device must be online',
  notProvisioned: 'Action not supported until fully provisioned',
  localMode: 'Not available in local mode',
  noBlink: 'Device does not support blinking',
  noDevices: 'No devices selected',
  oldSupervisor: 'Container control needs supervisor version 7 or later',
  running: 'The service is already running',
  stopped: 'The service is already stopped',
  exited: 'The service is not running',
  pending: 'Another action is in progress',
  inactive: 'Device already inactive',
} as const;

// useFleetRole's `denied`: null when allowed, else why not.
export type Denied = (resource: string, action: string) => string | null;

// What the rules need to know of a device.
export type ActionDevice = {
  // The cloudlink (balena's VPN): every supervisor action travels over it.
  isConnected: boolean;
  supervisorVersion: string | null;
  isInLocalMode: boolean;
  isActive: boolean;
  // Why local mode cannot be turned on, or null.
  localModeBlock: string | null;
  // Unknown (undefined) when the device type's contract was not loaded: the device decides.
  supportsBlink?: boolean;
};

// Container control needs supervisor 7.
export const minimumContainerSupervisorMajor = 7;

export const supervisorMajor = (version: string | null): number | null => {
  const match = /^v?(\d+)\./.exec(version ?? '');
  return match ? Number(match[1]) : null;
};

// The list and page queries expand only the local-mode variables.
export const isLocalMode = (variables: readonly ConfigVariable[]): boolean =>
  isInLocalMode(variables);

// Device types whose contract says they have no LED cannot blink.
export const supportsBlink = (contract: JsonObject | null | undefined): boolean | undefined => {
  const data = contract?.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  return data.led === false ? false : true;
};

// Why the device state blocks a supervisor action, or null. A device that never reported a
// supervisor has not finished provisioning.
const stateBlock = (action: SupervisorActionId, device: ActionDevice): string | null => {
  if (device.supervisorVersion === null) return actionMessages.notProvisioned;
  // "Needs online, or queue": an offline device may queue the action until it is back.
  if (!device.isConnected && actionReach[supervisorActionOf[action]] === 'online') {
    return actionMessages.offline;
  }
  // In local mode the device ignores the cloud's view of its services.
  if (device.isInLocalMode && (action === 'restart' || action === 'purge')) {
    return actionMessages.localMode;
  }
  if (action === 'identify' && device.supportsBlink === false) return actionMessages.noBlink;
  return null;
};

// Why an action is unavailable on one device (the tooltip of the disabled control), or null.
// Permissions first: a user who may not act needs no state explanation.
export const deviceActionBlock = (
  action: DeviceActionId,
  device: ActionDevice,
  denied: Denied,
): string | null => {
  const permission = deviceActionPermissions[action];
  const refusal = denied(permission.resource, permission.action);
  if (refusal !== null) return refusal;
  if (action === 'deactivate' && !device.isActive) return actionMessages.inactive;
  // An ineligible device may still leave local mode (it could have been turned on before), so
  // only a device that is not in it is blocked, with its eligibility reason.
  if (action === 'local-mode' && !device.isInLocalMode && device.localModeBlock !== null) {
    return device.localModeBlock;
  }
  return isSupervisorAction(action) ? stateBlock(action, device) : null;
};

// Whether the action, allowed on the device, would wait in its queue (the device is offline).
export const queuesOffline = (action: DeviceActionId, device: ActionDevice): boolean =>
  isSupervisorAction(action) &&
  !device.isConnected &&
  actionReach[supervisorActionOf[action]] === 'online-or-queue';

export type BatchPlan<T> = {
  // Null when the action may run on some of the selection.
  block: string | null;
  eligible: T[];
  // Devices left out, with the reason of each.
  skipped: { item: T; reason: string }[];
};

// A batch runs on the selected devices the action is allowed on; it is blocked only when none
// qualifies (then with the first device's reason).
export const planBatch = <T>(
  action: DeviceActionId,
  items: readonly T[],
  deviceOf: (item: T) => ActionDevice,
  denied: Denied,
): BatchPlan<T> => {
  if (items.length === 0) return { block: actionMessages.noDevices, eligible: [], skipped: [] };
  const eligible: T[] = [];
  const skipped: { item: T; reason: string }[] = [];
  for (const item of items) {
    const reason = deviceActionBlock(action, deviceOf(item), denied);
    if (reason === null) eligible.push(item);
    else skipped.push({ item, reason });
  }
  return { block: eligible.length === 0 ? (skipped[0]?.reason ?? null) : null, eligible, skipped };
};

// Container buttons: start disabled when running (healthy or not), stop when exited or
// stopped, restart when exited; all of them while an action is pending; and like the other
// supervisor actions, on the device's permission and state.
export const containerActionBlock = (
  action: ContainerActionId,
  containerStatus: string,
  pending: boolean,
  device: ActionDevice,
  denied: Denied,
  // Whether an offline device may get the action queued for when it comes back.
  queueWhenOffline = false,
): string | null => {
  const permission = containerActionPermissions[action];
  const refusal = denied(permission.resource, permission.action);
  if (refusal !== null) return refusal;
  if (device.supervisorVersion === null) return actionMessages.notProvisioned;
  if (!device.isConnected && !queueWhenOffline) return actionMessages.offline;
  if (device.isInLocalMode) return actionMessages.localMode;
  const major = supervisorMajor(device.supervisorVersion);
  if (major !== null && major < minimumContainerSupervisorMajor) {
    return actionMessages.oldSupervisor;
  }
  if (pending) return actionMessages.pending;
  const status = containerStatus.toLowerCase();
  // An unhealthy service runs too: restart it, or stop it.
  if (action === 'start' && (status === 'running' || status === 'unhealthy')) {
    return actionMessages.running;
  }
  if (action === 'stop' && (status === 'exited' || status === 'stopped')) {
    return actionMessages.stopped;
  }
  if (action === 'restart' && status === 'exited') return actionMessages.exited;
  return null;
};

// The rules' view of a device row (table row or device page).
export const actionDeviceOf = (device: {
  is_connected_to_vpn: boolean;
  is_active: boolean;
  supervisor_version: string | null;
  os_version: string | null;
  os_variant: string | null;
  device_config_variable: readonly ConfigVariable[];
  is_of__device_type: readonly { slug: string; contract?: JsonObject | null }[];
}): ActionDevice => ({
  isConnected: device.is_connected_to_vpn,
  supervisorVersion: device.supervisor_version,
  isInLocalMode: isLocalMode(device.device_config_variable),
  isActive: device.is_active,
  localModeBlock: localModeBlock(device),
  supportsBlink: supportsBlink(device.is_of__device_type[0]?.contract),
});
