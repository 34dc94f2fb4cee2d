import { grants, type Permission } from './permissions.js';
import type { FleetRole } from './roles.js';

// Field-level rules on top of the row-level tables of permissions.ts. The server enforces them on
// every /v7 write (single and bulk); the console reads the same data to gate its controls.

// Changing the field needs this permission besides `update` on the row: on the row itself, or,
// with `via`, on the row that foreign key of the written row points at before the write (the
// device's current fleet). Setting a field to the value it already holds changes nothing and needs
// nothing more; creating a row is not a change. `targetRoles`, on a foreign key: the row the new
// value names must be one where the caller holds one of these fleet roles (directly, through a
// team, or as administrator of its organization).
export type FieldPermission = {
  permission: Permission;
  via?: string;
  targetRoles?: readonly FleetRole[];
};

// Move targets need developer, safe-developer or operator on the target (direct or via team) or
// organization administrator.
export const moveTargetRoles: readonly FleetRole[] = [
  'administrator',
  'developer',
  'safe-developer',
  'operator',
];

// The device fields behind the actions of the device Action menu.
// Fields needing only `resin.device.update` are listed too, so the console reads
// every action's rule here.
export const deviceFieldPermissions = {
  // "move device: resin.device.move", and a move-target role on the fleet it moves to.
  belongs_to__application: { permission: 'resin.device.move', targetRoles: moveTargetRoles },
  // "deactivate: resin.application.deactivate-device", held on the device's fleet.
  is_active: {
    permission: 'resin.application.deactivate-device',
    via: 'belongs_to__application',
  },
  // "rename, notes, pin, public URL, support access (device): resin.device.update".
  is_pinned_on__release: { permission: 'resin.device.update' },
  is_web_accessible: { permission: 'resin.device.update' },
  is_accessible_by_support_until__date: { permission: 'resin.device.update' },
  custom_latitude: { permission: 'resin.device.update' },
  custom_longitude: { permission: 'resin.device.update' },
  // The host OS release and the supervisor release the device is told to run: OS update and
  // supervisor update.
  should_be_operated_by__release: { permission: 'resin.device.actions-proxy-hup' },
  should_be_managed_by__release: { permission: 'resin.device.actions-proxy-supervisorupgrade' },
  // The geo-determined location is the device's own report: only its key holds this.
  latitude: { permission: 'resin.device.report-location' },
  longitude: { permission: 'resin.device.report-location' },
} as const satisfies Readonly<Record<string, FieldPermission>>;

export const fieldPermissions: Readonly<Record<string, Readonly<Record<string, FieldPermission>>>> =
  { device: deviceFieldPermissions };

// Configuration variables whose setting is an action of its own: "local mode:
// resin.device_config_variable.all". balena-supervisor reads either name.
export const localModeVariableNames = [
  'RESIN_SUPERVISOR_LOCAL_MODE',
  'BALENA_SUPERVISOR_LOCAL_MODE',
] as const;
export const localModePermission: Permission = 'resin.device_config_variable.all';

// `resin.<resource>.<action>` taken apart.
export const permissionParts = (permission: Permission): { resource: string; action: string } => {
  const [, resource = '', action = ''] = permission.split('.');
  return { resource, action };
};

export const fieldPermissionOf = (resource: string, field: string): FieldPermission | undefined =>
  fieldPermissions[resource]?.[field];

// Whether permissions held on a fleet let the holder change `field` of a `resource` row there:
// what the console checks before offering the control.
export const mayChangeField = (
  held: readonly Permission[],
  resource: string,
  field: string,
): boolean => {
  if (!grants(held, resource, 'update')) return false;
  const rule = fieldPermissionOf(resource, field);
  if (!rule) return true;
  const { resource: ruleResource, action } = permissionParts(rule.permission);
  return grants(held, ruleResource, action);
};

// Whether fleet roles held on a target fleet let the holder move devices there.
export const mayMoveTo = (rolesOnTarget: readonly FleetRole[]): boolean =>
  rolesOnTarget.some((role) => moveTargetRoles.includes(role));

export const mayToggleLocalMode = (held: readonly Permission[]): boolean => {
  const { resource, action } = permissionParts(localModePermission);
  return grants(held, resource, action);
};

// Which fields an API key may write through /v7, per resource and write kind; any other field
// in the body makes the write a 401. A resource without an entry follows the row tables alone.
export type KeyWritableFields = { create?: readonly string[]; update?: readonly string[] };

// The device columns a state report (PATCH /device/v3/state) sets: the device's own readings.
// balena-supervisor and older agents may also PATCH them on /v7/device directly.
const reportedDeviceFields = [
  'status',
  'os_version',
  'os_variant',
  'supervisor_version',
  'provisioning_progress',
  'provisioning_state',
  'ip_address',
  'mac_address',
  'cpu_id',
  'is_undervolted',
  'memory_usage',
  'memory_total',
  'storage_block_device',
  'storage_usage',
  'storage_total',
  'cpu_usage',
  'cpu_temp',
  'download_progress',
  'update_status',
] as const;

// A device key writes only what a device reports about itself. Never its fleet, device
// type, owner, active flag, support access, public URL or note: those are its owners' decisions.
export const deviceKeyWritableFields: Readonly<Record<string, KeyWritableFields>> = {
  device: {
    update: [
      ...reportedDeviceFields,
      // balena-supervisor names the device once from config.json (reportInitialName); our
      // simulator names its devices the same way.
      'device_name',
      // balena-supervisor pins a preloaded device to the preloaded release (apps.json
      // pinDevice); the release must be one the device may read.
      'is_pinned_on__release',
      // Our agent reports the position it knows (the simulator; a device with GPS): the
      // geo-determined location. The custom pair is the owners' manual choice.
      'latitude',
      'longitude',
    ],
  },
  device_tag: { create: ['device', 'tag_key', 'value'], update: ['tag_key', 'value'] },
  // balena-supervisor's first report of its local configuration (reportInitialConfig) POSTs a
  // device_config_variable {device, name, value} for each non-default setting that neither the
  // fleet nor the device sets yet. It never updates nor deletes one, so a device key may only
  // create them (deviceKeyPermissions): a name already set answers 409, so a device cannot
  // override what its owners chose, only report what it runs with.
  device_config_variable: { create: ['device', 'name', 'value'] },
};

// A provisioning key creates devices with what registration sets (POST /device/register), nothing
// that only a fleet's members decide.
export const provisioningKeyWritableFields: Readonly<Record<string, KeyWritableFields>> = {
  device: {
    create: [
      'uuid',
      'device_name',
      'belongs_to__application',
      'is_of__device_type',
      'supervisor_version',
      'os_version',
      'os_variant',
      'mac_address',
    ],
  },
};
