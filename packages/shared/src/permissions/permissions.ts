import type { FleetRole, OrganizationRole, PlatformRole } from './roles.js';

// A permission is `resin.<resource>.<action>`; the action "all" covers every action of the resource.
export type Permission = `resin.${string}.${string}`;

const p = (resource: string, ...actions: string[]): Permission[] =>
  actions.map((action): Permission => `resin.${resource}.${action}`);

// Everything that hangs under a fleet and that any role with access to the fleet may read.
const fleetReadableResources = [
  'application',
  'application_tag',
  'application_config_variable',
  'application_environment_variable',
  'build_environment_variable',
  'service',
  'service_environment_variable',
  'service_label',
  'device',
  'device_tag',
  'device_config_variable',
  'device_environment_variable',
  'device_service_environment_variable',
  'service_install',
  'image_install',
  'release',
  'release_tag',
  'release_image',
  'release_asset',
  'image',
  'image_label',
  'image_environment_variable',
  'device_history',
  'user_application_membership',
  'team_application_access',
  'invitee__is_invited_to__application',
  // Alerts raised on the fleet's devices (their rules belong to the organization).
  'flotilla_alert',
  // Staged rollouts and their waves, enrolled devices and timeline (read-only on /v7).
  'flotilla_rollout',
  'flotilla_rollout_wave',
  'flotilla_rollout_device',
  'flotilla_rollout_event',
] as const;

const observer: Permission[] = fleetReadableResources.flatMap((resource) => p(resource, 'read'));

// Safe-operators hold "API keys" unqualified (like "tags"): they create, list,
// rename and revoke the fleet's provisioning keys and its devices' keys (api_key's fleet scope).
const safeOperator: Permission[] = [
  ...observer,
  ...p('api_key', 'all'),
  ...p('device', 'create', 'update', 'access_diagnostics', 'ssh', 'actions-proxy-hup'),
  ...p('device_environment_variable', 'all'),
  ...p('device_service_environment_variable', 'all'),
  ...p('device_tag', 'all'),
];

// The host OS terminal (ssh-host) is an operator's: the limited roles open shells in services only.
const operator: Permission[] = [
  ...safeOperator,
  ...p('application', 'deactivate-device'),
  ...p(
    'device',
    'delete',
    'move',
    'ssh-host',
    'supervisor-proxy-write',
    'actions-proxy-supervisorupgrade',
  ),
  ...p('device_config_variable', 'all'),
  // Staged rollouts: an operator may stop the harm (pause); starting, resuming, skipping a gate
  // and aborting are for those who may set the fleet's release.
  ...p('flotilla_rollout', 'pause'),
];

const safeDeveloper: Permission[] = [
  ...operator.filter(
    (permission) => permission !== 'resin.device.delete' && permission !== 'resin.device.ssh-host',
  ),
  ...p('application', 'push'),
  ...p('application_environment_variable', 'all'),
  ...p('build_environment_variable', 'all'),
  ...p('service_environment_variable', 'all'),
  ...p('service', 'create', 'update'),
  ...p('image', 'create', 'update'),
  ...p('release_image', 'create'),
  // balena deploy labels its images and sets their build-time environment.
  ...p('image_label', 'create'),
  ...p('image_environment_variable', 'create'),
  ...p('device_log', 'delete'),
  ...p('user_application_membership', 'delete-own'),
  ...p('release', 'create', 'update'),
  ...p('release_tag', 'all'),
  // Whoever may create releases attaches assets to them (balena-sdk release.asset.upload).
  ...p('release_asset', 'create', 'update'),
  // Team access to fleets: administrator, developer and safe-developer create, update and
  // delete it (a grant never exceeds the granter's own role: team-access hooks).
  ...p('team_application_access', 'create', 'update', 'delete'),
];

const developer: Permission[] = [
  ...safeDeveloper,
  ...p('device', 'delete', 'ssh-host'),
  ...p('release', 'all'),
  ...p('flotilla_rollout', 'all'),
  ...p('release_asset', 'all'),
  ...p('image', 'all'),
  ...p('application', 'update'),
  ...p('application_config_variable', 'all'),
  ...p('application_tag', 'all'),
  ...p('team_application_access', 'all'),
  // Fleet membership: the administrator adds users, changes roles and deletes; a developer may
  // delete.
  ...p('user_application_membership', 'delete'),
];

const administrator: Permission[] = [
  ...developer,
  ...p('application', 'all'),
  // The fleet's and its devices' history in the audit log (features/audit-log).
  ...p('audit_log_entry', 'read'),
  ...p('user_application_membership', 'all'),
  ...p('invitee__is_invited_to__application', 'all'),
];

// What each fleet role may do on the rows of a fleet it holds.
export const fleetRolePermissions: Record<FleetRole, readonly Permission[]> = {
  observer,
  'safe-operator': safeOperator,
  operator,
  'safe-developer': safeDeveloper,
  developer,
  administrator,
};

const organizationReadable = [
  'organization',
  'organization_membership',
  'organization_membership_tag',
  'team',
  'team_membership',
  // Which fleets the organization's teams reach (the fleets themselves stay behind their roles).
  'team_application_access',
] as const;

// What each organization role may do on the organization's own rows. Organization administrators
// also hold the fleet role "administrator" on every fleet of the organization.
export const organizationRolePermissions: Record<OrganizationRole, readonly Permission[]> = {
  member: [
    ...organizationReadable.flatMap((resource) => p(resource, 'read')),
    // Every member reads the organization's support tickets and opens them (features/support;
    // whether the plan includes private support is decided apart).
    ...p('support_ticket', 'read', 'create'),
    // Every member sees which alert rules watch the organization's devices.
    ...p('flotilla_alert_rule', 'read'),
  ],
  administrator: [
    ...p('support_ticket', 'read', 'create'),
    // The organization's audit log (features/audit-log), read only: nobody writes it but the server.
    ...p('audit_log_entry', 'read'),
    ...p('organization', 'all', 'access_billing', 'manage_webhooks'),
    // Credits are billing: bought and watched by those with billing access.
    ...p('credit_bundle', 'read', 'create'),
    ...p('organization_credit_notification', 'all'),
    ...p('organization_membership', 'all'),
    ...p('organization_membership_tag', 'all'),
    ...p('team', 'all'),
    ...p('team_membership', 'all'),
    ...p('application', 'create'),
    ...p('invitee__is_invited_to__organization', 'all'),
    // Alert rules: who is told what about the organization's devices (features/alerts).
    ...p('flotilla_alert_rule', 'all'),
    // Identity providers: an administrator of any organization a provider serves manages it,
    // attaches the organizations they administer, and sees and revokes its SAML accounts.
    // Creating one is theirs too (features/sso attaches the new provider to an organization
    // they administer, within the write).
    ...p('identity_provider', 'all'),
    ...p('identity_provider_membership', 'all'),
    ...p('saml_account', 'read', 'delete'),
  ],
};

// Platform roles act on every row, but only with these permissions.
export const platformRolePermissions: Record<PlatformRole, readonly Permission[]> = {
  // Read-only otherwise, and only where support access reaches (support-access.ts): the devices
  // and fleets that grant it, and the organizations of those fleets, until the date granted.
  support_agent: [
    ...p('device', 'read', 'access_diagnostics', 'ssh', 'ssh-host'),
    ...p('application', 'read'),
    ...p('device_tag', 'read'),
    ...p('organization', 'read'),
    ...p('organization_membership', 'read'),
    // Which identity providers sign the organization's members in.
    ...p('identity_provider_membership', 'read'),
    // The help desk's queue: every organization's tickets, assigned, answered, their status set.
    ...p('support_ticket', 'read', 'update'),
  ],
  balena_admin: [
    ...p('support_ticket', 'all'),
    // Every organization's audit log and the platform's own events.
    ...p('audit_log_entry', 'read'),
    ...p('device', 'access_diagnostics', 'ssh', 'ssh-host'),
    ...p('organization', 'all'),
    ...p('credit_bundle', 'read', 'create'),
    ...p('organization_credit_notification', 'all'),
    ...p('organization_membership', 'all'),
    ...p('user_application_membership', 'read', 'delete'),
    ...p('identity_provider', 'all'),
    ...p('identity_provider_membership', 'all'),
    ...p('saml_account', 'read', 'delete'),
  ],
};

// Every signed-in user on rows that are their own: their user row, SSH keys, named API keys,
// linked accounts, their own memberships (a user may always leave).
export const ownRowPermissions: readonly Permission[] = [
  ...p('user', 'read', 'update'),
  ...p('user_profile', 'read', 'update'),
  ...p('user__has__public_key', 'all'),
  ...p('api_key', 'all'),
  ...p('social_service_account', 'read', 'delete'),
  ...p('saml_account', 'read'),
  ...p('recovery_two_factor', 'read'),
  ...p('organization_membership', 'read', 'delete'),
  ...p('user_application_membership', 'read', 'delete'),
  ...p('team_membership', 'read'),
  ...p('invitee__is_invited_to__organization', 'read'),
  ...p('invitee__is_invited_to__application', 'read'),
  // An authorization of an OAuth application: its owner sees it and revokes it; POST
  // /oauth/authorize creates it (features/oauth).
  ...p('oauth_application_authorization', 'read', 'delete'),
];

// What every signed-in user may read on every row (not guests, nor device or provisioning keys):
// the registered OAuth applications' public fields, which the consent page shows.
export const signedInPermissions: readonly Permission[] = [...p('oauth_application', 'read')];

// Rows readable to whoever may read a row that points at them (the model's `readableThrough`):
// the users of the memberships one may read, i.e. the people one shares an organization, fleet or
// team with (their username; owner-only fields stay hidden), their SAML accounts (the member
// list's badge), and the invitees of the invitations one may read.
export const relatedRowReadPermissions: readonly Permission[] = [
  ...p('user', 'read'),
  ...p('saml_account', 'read'),
  ...p('invitee', 'read'),
];

// What anyone may read, signed in or not: the catalogues, and the rows each resource marks public
// (public fleets such as host OS apps and their releases).
export const publicPermissions: readonly Permission[] = [
  ...p('application', 'read'),
  ...p('release', 'read'),
  ...p('release_tag', 'read'),
  ...p('release_asset', 'read'),
  ...p('release_image', 'read'),
  ...p('image', 'read'),
  ...p('application_tag', 'read'),
  ...p('device_type', 'read'),
  ...p('device_type_alias', 'read'),
  ...p('cpu_architecture', 'read'),
  ...p('device_family', 'read'),
  ...p('device_manufacturer', 'read'),
  ...p('application_type', 'read'),
  ...p('application_membership_role', 'read'),
  ...p('organization_membership_role', 'read'),
  // The billable features (device, member, ...): the credits page buys credits for one by id.
  ...p('feature', 'read'),
];

// A provisioning key acts for one fleet: it reads the fleet and registers devices into it.
export const provisioningKeyPermissions: readonly Permission[] = [
  ...p('application', 'read'),
  ...p('device', 'create', 'read'),
  ...p('api_key', 'create'),
];

// A device key acts for one device: itself, its own state rows, and read access to its fleet.
// Which fields of its rows it may write is narrowed further in field-permissions.ts. Installs are
// written by the server from state reports, so the device only reads them.
export const deviceKeyPermissions: readonly Permission[] = [
  // report-location: the geo-determined latitude and longitude (field-permissions.ts).
  ...p('device', 'read', 'update', 'report-location'),
  ...p('device_tag', 'all'),
  ...p('device_config_variable', 'create', 'read'),
  ...p('device_environment_variable', 'read'),
  ...p('device_service_environment_variable', 'read'),
  ...p('image_install', 'read'),
  ...p('service_install', 'read'),
  ...p('application', 'read'),
  ...p('application_config_variable', 'read'),
  ...p('application_environment_variable', 'read'),
  ...p('service_environment_variable', 'read'),
  ...p('service', 'read'),
  ...p('release', 'read'),
  ...p('release_image', 'read'),
  ...p('image', 'read'),
  ...p('release_tag', 'read'),
];

export const grants = (held: readonly Permission[], resource: string, action: string): boolean =>
  held.includes(`resin.${resource}.${action}`) || held.includes(`resin.${resource}.all`);
