import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import {
  grantsOnFleet,
  rolesOnFleet,
  type UserMemberships,
} from '@flotilla/shared/permissions/fleet-access';
import type { AnyRole } from '@flotilla/shared/permissions/roles';

// What the batch actions need of a selected fleet: the list rows lack the architecture, the
// legacy flag and the user's roles.
export type BatchFleetRow = {
  id: number;
  app_name: string;
  is_of__class: ApplicationClass;
  organization: { id: number }[];
  is_for__device_type: {
    id: number;
    slug: string;
    name: string;
    is_of__cpu_architecture: { id: number; slug: string }[];
  }[];
  application_type: { is_legacy: boolean }[];
};

export type BatchRows = {
  fleets: BatchFleetRow[];
  // The user's memberships that concern the selection.
  memberships: UserMemberships;
};

export type BatchFleet = {
  id: number;
  name: string;
  className: ApplicationClass;
  organizationId: number;
  deviceType: { id: number; slug: string; name: string } | null;
  architecture: { id: number; slug: string } | null;
  isLegacy: boolean;
  roles: AnyRole[];
};

// Each fleet with the roles the user holds on it (shared/permissions/fleet-access.ts, as
// useFleetRole).
export const batchFleetsOf = (
  rows: BatchRows,
  sessionPermissions: readonly string[],
): BatchFleet[] =>
  rows.fleets.map((fleet) => {
    const organizationId = fleet.organization[0]?.id ?? 0;
    const deviceType = fleet.is_for__device_type[0];
    const roles = rolesOnFleet(
      grantsOnFleet(rows.memberships, { id: fleet.id, organizationId }),
      sessionPermissions,
    );
    return {
      id: fleet.id,
      name: fleet.app_name,
      className: fleet.is_of__class,
      organizationId,
      deviceType: deviceType
        ? { id: deviceType.id, slug: deviceType.slug, name: deviceType.name }
        : null,
      architecture: deviceType?.is_of__cpu_architecture[0] ?? null,
      isLegacy: fleet.application_type[0]?.is_legacy ?? false,
      roles,
    };
  });
