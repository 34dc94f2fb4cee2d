import {
  deviceKeyPermissions,
  fleetRolePermissions,
  grants,
  organizationRolePermissions,
  ownRowPermissions,
  type Permission,
  platformRolePermissions,
  provisioningKeyPermissions,
  publicPermissions,
  relatedRowReadPermissions,
  signedInPermissions,
} from '@flotilla/shared/permissions/permissions';
import {
  deviceKeyWritableFields,
  type KeyWritableFields,
  provisioningKeyWritableFields,
} from '@flotilla/shared/permissions/field-permissions';
import {
  fleetRoles,
  organizationRoles,
  platformPermissionOf,
  platformRoles,
} from '@flotilla/shared/permissions/roles';
import { supportReachOf } from '@flotilla/shared/permissions/support-access';
import type { Actor } from '../auth/actor.js';
import type { Resource } from '../../model/model-types.js';
import type { RequestValues, SqlParams } from './sql-params.js';
import type { WriteMode } from './write-values.js';

// The row filter an actor has for one action on one resource, as SQL over the row's alias, or
// null when the actor holds the action on no row at all (the API then answers 401).
export type PermissionFilter = (resource: Resource, action: string, row: string) => string | null;

const memo = new Map<string, readonly string[]>();
const holders = <Role extends string>(
  roles: readonly Role[],
  table: Record<Role, readonly Permission[]>,
  resource: string,
  action: string,
  kind: string,
): readonly string[] => {
  const key = `${kind}:${resource}:${action}`;
  const cached = memo.get(key);
  if (cached) return cached;
  const found = roles.filter((role) => grants(table[role], resource, action));
  memo.set(key, found);
  return found;
};

// Support agents act on a row only while support access reaches it (shared support-access.ts:
// a device's own grant or its fleet's; a fleet's, or one of its devices'; an organization's
// fleets' or their devices'), until the date granted. Anything else: no row.
const deviceSupported = (device: string): string =>
  `(${device}."is_accessible_by_support_until__date" > now() OR EXISTS (SELECT 1 FROM "application" sa WHERE sa."id" = ${device}."belongs_to__application" AND sa."is_accessible_by_support_until__date" > now()))`;

const fleetSupported = (fleet: string): string =>
  `(${fleet}."is_accessible_by_support_until__date" > now() OR EXISTS (SELECT 1 FROM "device" sd WHERE sd."belongs_to__application" = ${fleet}."id" AND sd."is_accessible_by_support_until__date" > now()))`;

const organizationSupported = (organization: string): string =>
  `EXISTS (SELECT 1 FROM "application" so WHERE so."organization" = ${organization} AND ${fleetSupported('so')})`;

const supportAccessGranted = (resource: Resource, row: string): string => {
  const reach = supportReachOf[resource.name];
  const scope = resource.scope;
  if (reach === 'device' && resource.name === 'device') return deviceSupported(row);
  if (reach === 'device' && scope.device) {
    return `EXISTS (SELECT 1 FROM "device" sd WHERE sd."id" = ${scope.device(row)} AND ${deviceSupported('sd')})`;
  }
  if (reach === 'fleet' && resource.name === 'application') return fleetSupported(row);
  if (reach === 'organization' && scope.organization) {
    return organizationSupported(scope.organization(row));
  }
  return 'false';
};

const anyOf = (conditions: string[]): string | null =>
  conditions.length === 0
    ? null
    : conditions.length === 1
      ? (conditions[0] ?? null)
      : `(${conditions.join(' OR ')})`;

// Public rows need both the table's permission and the resource's own public condition, so a
// resource that forgets to define one is never exposed by accident.
const publicCondition = (resource: Resource, action: string, row: string): string | null =>
  grants(publicPermissions, resource.name, action) && resource.scope.public
    ? resource.scope.public(row)
    : null;

// How many readable-through hops a read filter follows (user -> membership, saml_account -> user
// -> membership); the model's chains are shorter, this only bounds a mistaken cycle.
const maxThroughDepth = 3;

const throughAlias = (row: string, index: number): string =>
  `"${row.replace(/[^A-Za-z0-9_]/g, '')}_through${index}"`;

const isKind = <Kind extends Actor['kind']>(
  actor: Actor,
  kind: Kind,
): actor is Extract<Actor, { kind: Kind }> => actor.kind === kind;

// The caller's ids in a statement are values read from the request (sql-params.ts), so a
// statement compiled for one caller is reused, with that caller's ids, for another caller of the
// same permission shape (below).
const callerOf = <Kind extends Actor['kind']>(
  request: RequestValues,
  kind: Kind,
): Extract<Actor, { kind: Kind }> => {
  const actor = request.actor;
  if (!isKind(actor, kind)) {
    throw new Error(`A statement compiled for a ${kind} caller was run for a ${actor.kind}`);
  }
  return actor;
};

const heldPlatformRolesOf = (actor: Extract<Actor, { kind: 'user' }>) =>
  platformRoles.filter((role) => actor.platformPermissions.includes(platformPermissionOf[role]));

// Everything about the caller that shapes the SQL of its permission filters, but not its ids: two
// callers with the same shape get the same SQL text with different values.
export const permissionShape = (actor: Actor): string => {
  if (actor.kind === 'anonymous' || (actor.kind === 'user' && actor.twoFactorPending)) {
    return 'anonymous';
  }
  if (actor.kind === 'user') return `user:${heldPlatformRolesOf(actor).join(',')}`;
  return actor.kind;
};

// The caller is the one whose values `params` reads.
export const createPermissionFilter = (params: SqlParams): PermissionFilter => {
  const actor = params.request.actor;
  // Placeholders are added on first use: PostgreSQL rejects a parameter no statement mentions.
  const lazy = (source: (request: RequestValues) => number): (() => string) => {
    let placeholder: string | undefined;
    return () => (placeholder ??= `${params.read(source)}::integer`);
  };

  const roleParams = new Map<string, string>();
  const rolesParam = (roles: readonly string[]): string => {
    const key = roles.join(',');
    let placeholder = roleParams.get(key);
    if (!placeholder) {
      placeholder = `${params.fixed([...roles])}::text[]`;
      roleParams.set(key, placeholder);
    }
    return placeholder;
  };

  if (actor.kind === 'anonymous' || (actor.kind === 'user' && actor.twoFactorPending)) {
    return (resource, action, row) => publicCondition(resource, action, row);
  }

  if (actor.kind === 'user') {
    const user = lazy((request) => callerOf(request, 'user').userId);
    const actorId = lazy((request) => callerOf(request, 'user').actorId);
    const heldPlatformRoles = heldPlatformRolesOf(actor);
    const filter = (resource: Resource, action: string, row: string, depth: number) => {
      const conditions: string[] = [];
      const isPublic = publicCondition(resource, action, row);
      if (isPublic) conditions.push(isPublic);
      if (grants(signedInPermissions, resource.name, action)) conditions.push('true');
      // A row some readable row points at (a fellow member's user row): see ReadableThrough.
      if (
        action === 'read' &&
        depth < maxThroughDepth &&
        grants(relatedRowReadPermissions, resource.name, action)
      ) {
        resource.readableThrough.forEach((through, index) => {
          const other = throughAlias(row, index);
          const readable = filter(through.resource, 'read', other, depth + 1);
          if (readable === null) return;
          conditions.push(
            `EXISTS (SELECT 1 FROM "${through.resource.name}" ${other} WHERE ${through.on(row, other)} AND ${readable})`,
          );
        });
      }
      for (const role of heldPlatformRoles) {
        if (!grants(platformRolePermissions[role], resource.name, action)) continue;
        conditions.push(role === 'balena_admin' ? 'true' : supportAccessGranted(resource, row));
      }
      const scope = resource.scope;
      const fleet = holders(fleetRoles, fleetRolePermissions, resource.name, action, 'fleet');
      if (fleet.length > 0 && scope.application) {
        conditions.push(
          `${scope.application(row)} IN (SELECT fa."application" FROM "fleet_access" fa WHERE fa."user" = ${user()} AND fa."role" = ANY(${rolesParam(fleet)}))`,
        );
      }
      const organization = holders(
        organizationRoles,
        organizationRolePermissions,
        resource.name,
        action,
        'organization',
      );
      if (organization.length > 0 && scope.organization) {
        conditions.push(
          `${scope.organization(row)} IN (SELECT oa."organization" FROM "organization_access" oa WHERE oa."user" = ${user()} AND oa."role" = ANY(${rolesParam(organization)}))`,
        );
      }
      if (organization.length > 0 && scope.organizations) {
        conditions.push(
          `EXISTS (SELECT 1 FROM "organization_access" oa WHERE oa."user" = ${user()} AND oa."role" = ANY(${rolesParam(organization)}) AND oa."organization" IN ${scope.organizations(row)})`,
        );
      }
      if (grants(ownRowPermissions, resource.name, action)) {
        if (scope.user) conditions.push(`${scope.user(row)} = ${user()}`);
        if (scope.actor) conditions.push(`${scope.actor(row)} = ${actorId()}`);
      }
      return anyOf(conditions);
    };
    return (resource, action, row) => filter(resource, action, row, 0);
  }

  if (actor.kind === 'application') {
    const application = lazy((request) => callerOf(request, 'application').applicationId);
    return (resource, action, row) => {
      const conditions: string[] = [];
      const isPublic = publicCondition(resource, action, row);
      if (isPublic) conditions.push(isPublic);
      if (grants(provisioningKeyPermissions, resource.name, action) && resource.scope.application) {
        conditions.push(`${resource.scope.application(row)} = ${application()}`);
      }
      return anyOf(conditions);
    };
  }

  const device = lazy((request) => callerOf(request, 'device').deviceId);
  const application = lazy((request) => callerOf(request, 'device').applicationId);
  return (resource, action, row) => {
    const conditions: string[] = [];
    const isPublic = publicCondition(resource, action, row);
    if (isPublic) conditions.push(isPublic);
    if (grants(deviceKeyPermissions, resource.name, action)) {
      // A device reaches its own rows by device; fleet rows (releases, fleet variables) by fleet.
      if (resource.scope.device) conditions.push(`${resource.scope.device(row)} = ${device()}`);
      else if (resource.scope.application) {
        conditions.push(`${resource.scope.application(row)} = ${application()}`);
      }
    }
    return anyOf(conditions);
  };
};

// The condition under which an owner-only field (FieldDefinition.ownerOnly) shows its value: the
// row is the calling user's own.
export type OwnRowCondition = (resource: Resource, row: string) => string;

// The caller is the one whose values `params` reads; its id is read from the request, so the
// statement stays reusable for another caller of the same shape.
export const createOwnRowCondition = (params: SqlParams): OwnRowCondition => {
  const actor = params.request.actor;
  // Same shapes as the permission filters (permissionShape): a caller still owing its second
  // factor shares statements with anonymous callers.
  if (actor.kind !== 'user' || actor.twoFactorPending) return () => 'false';
  let placeholder: string | undefined;
  return (resource, row) => {
    if (!resource.scope.user) return 'false';
    placeholder ??= `${params.read((request) => callerOf(request, 'user').userId)}::integer`;
    return `${resource.scope.user(row)} = ${placeholder}`;
  };
};

// SQL true when the caller holds one of `roles` on the fleet whose id is the SQL `application`
// (fleet_access: direct, through a team, or organization administrator). Only users hold fleet
// roles.
export type FleetRoleCondition = (application: string, roles: readonly string[]) => string;

export const createFleetRoleCondition = (params: SqlParams): FleetRoleCondition => {
  const actor = params.request.actor;
  // As createOwnRowCondition: a caller still owing its second factor holds no role.
  if (actor.kind !== 'user' || actor.twoFactorPending) return () => 'false';
  let user: string | undefined;
  return (application, roles) => {
    user ??= `${params.read((request) => callerOf(request, 'user').userId)}::integer`;
    return `${application} IN (SELECT fa."application" FROM "fleet_access" fa WHERE fa."user" = ${user} AND fa."role" = ANY(${params.fixed([...roles])}::text[]))`;
  };
};

// The fields an API key may write on a resource (shared field-permissions table), or undefined for
// users, whom the row and field-change rules alone govern. For a key, a resource missing from its
// table has no writable field: granting a key a new write needs its fields listed too.
export const keyWritableFields = (
  actor: Actor,
  resource: string,
  mode: WriteMode,
): readonly string[] | undefined => {
  let table: Readonly<Record<string, KeyWritableFields>>;
  if (actor.kind === 'device') table = deviceKeyWritableFields;
  else if (actor.kind === 'application') table = provisioningKeyWritableFields;
  else return undefined;
  return table[resource]?.[mode] ?? [];
};
