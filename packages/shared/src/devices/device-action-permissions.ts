import type { DeviceAction } from '../cloudlink/messages.js';
import {
  deviceFieldPermissions,
  localModePermission,
  permissionParts,
} from '../permissions/field-permissions.js';
import type { Permission } from '../permissions/permissions.js';
import type { PermissionRef } from '../permissions/permission-ref.js';

// What each device action needs, read by the server's device-action routes
// and by the console's action rules, so both answer "may this user do it" the same way.

export type DevicePermissionRef = PermissionRef & { resource: 'device' };

// Everything that travels to a device over the cloudlink acts on its supervisor.
const supervisorProxyWrite: DevicePermissionRef = {
  resource: 'device',
  action: 'supervisor-proxy-write',
};

const accessDiagnostics: DevicePermissionRef = { resource: 'device', action: 'access_diagnostics' };

// The permission each cloudlink action needs on the device (POST /supervisor/*,
// POST /application/:id/restart).
export const cloudlinkActionPermissions: Record<DeviceAction, DevicePermissionRef> = {
  ping: supervisorProxyWrite,
  blink: supervisorProxyWrite,
  'restart-services': supervisorProxyWrite,
  reboot: supervisorProxyWrite,
  shutdown: supervisorProxyWrite,
  purge: supervisorProxyWrite,
  update: supervisorProxyWrite,
  'device-state': supervisorProxyWrite,
  'start-service': supervisorProxyWrite,
  'stop-service': supervisorProxyWrite,
  'restart-service': supervisorProxyWrite,
  // Run through the actions service (features/diagnostics), not /supervisor/*.
  checks: accessDiagnostics,
  diagnose: accessDiagnostics,
};

// The console's actions on a device: those sent to the supervisor, and writes through /v7.
export type SupervisorActionId = 'restart' | 'reboot' | 'shutdown' | 'identify' | 'purge';
// Writes of one device field (or of its local-mode variable), each with a form of its own.
export type FieldActionId =
  'pin' | 'public-url' | 'local-mode' | 'support-access' | 'move' | 'deactivate';
// Which host OS or supervisor release a device should run: /v7 writes with rules of their own.
export type HostUpdateActionId = 'os-update' | 'supervisor-update';
export type DeviceActionId =
  SupervisorActionId | FieldActionId | HostUpdateActionId | 'rename' | 'notes' | 'delete';
export type ContainerActionId = 'start' | 'stop' | 'restart';

// The cloudlink action each console action sends.
export const supervisorActionOf: Record<SupervisorActionId, DeviceAction> = {
  restart: 'restart-services',
  reboot: 'reboot',
  shutdown: 'shutdown',
  identify: 'blink',
  purge: 'purge',
};

export const containerActionOf: Record<ContainerActionId, DeviceAction> = {
  start: 'start-service',
  stop: 'stop-service',
  restart: 'restart-service',
};

const refOf = (permission: Permission): PermissionRef => permissionParts(permission);

// The field actions read the field-permission table the server enforces on /v7 writes.
export const fieldActionPermissions: Record<FieldActionId, PermissionRef> = {
  pin: refOf(deviceFieldPermissions.is_pinned_on__release.permission),
  'public-url': refOf(deviceFieldPermissions.is_web_accessible.permission),
  'support-access': refOf(deviceFieldPermissions.is_accessible_by_support_until__date.permission),
  move: refOf(deviceFieldPermissions.belongs_to__application.permission),
  deactivate: refOf(deviceFieldPermissions.is_active.permission),
  'local-mode': refOf(localModePermission),
};

// The same field-permission table: the server refuses these writes without the permission.
export const hostUpdateActionPermissions: Record<HostUpdateActionId, PermissionRef> = {
  'os-update': refOf(deviceFieldPermissions.should_be_operated_by__release.permission),
  'supervisor-update': refOf(deviceFieldPermissions.should_be_managed_by__release.permission),
};

export const deviceActionPermissions: Record<DeviceActionId, PermissionRef> = {
  ...fieldActionPermissions,
  ...hostUpdateActionPermissions,
  restart: cloudlinkActionPermissions[supervisorActionOf.restart],
  reboot: cloudlinkActionPermissions[supervisorActionOf.reboot],
  shutdown: cloudlinkActionPermissions[supervisorActionOf.shutdown],
  identify: cloudlinkActionPermissions[supervisorActionOf.identify],
  purge: cloudlinkActionPermissions[supervisorActionOf.purge],
  // Writes of the device row through /v7 (PATCH needs "update", DELETE "delete").
  rename: { resource: 'device', action: 'update' },
  notes: { resource: 'device', action: 'update' },
  delete: { resource: 'device', action: 'delete' },
};

export const containerActionPermissions: Record<ContainerActionId, DevicePermissionRef> = {
  start: cloudlinkActionPermissions[containerActionOf.start],
  stop: cloudlinkActionPermissions[containerActionOf.stop],
  restart: cloudlinkActionPermissions[containerActionOf.restart],
};

export const isSupervisorAction = (action: DeviceActionId): action is SupervisorActionId =>
  action in supervisorActionOf;

// The device page's panels that act on the device beyond reading it: the
// terminal (a service's shell, the host OS), diagnostics, and clearing the logs.
export type DevicePanelId = 'terminal-service' | 'terminal-host' | 'diagnostics' | 'clear-logs';

export const devicePanelPermissions: Record<DevicePanelId, PermissionRef> = {
  'terminal-service': { resource: 'device', action: 'ssh' },
  'terminal-host': { resource: 'device', action: 'ssh-host' },
  diagnostics: accessDiagnostics,
  // Granted on the device's row under the device_log name (the server's DELETE logs route).
  'clear-logs': { resource: 'device_log', action: 'delete' },
};
