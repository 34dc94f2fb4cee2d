import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { canRunArchitecture } from '@flotilla/shared/device-types/cpu-architectures';
import { fleetRolesOn, type UserMemberships } from '@flotilla/shared/permissions/fleet-access';
import { mayMoveTo } from '@flotilla/shared/permissions/field-permissions';

// The fleets a device can move to, each with why not when it cannot (seed 001 sections 5, 6
// and 8): the same rules the server applies to a PATCH of belongs_to__application.

export const moveMessages = {
  required: 'All fields must be filled out to proceed',
  permission: 'Insufficient permission for moving devices to this fleet',
  architecture: 'Could not find compatible cpu architecture',
  same: 'The devices are already in this fleet',
  noTargets: 'No applications with compatible arch',
  storage:
    'Devices with an OS older than 2.12.0 lose the data of their persistent storage (volumes) when they move.',
} as const;

export type MoveFleet = {
  id: number;
  app_name: string;
  slug: string;
  organizationId: number;
  architecture: string;
};

export type MoveData = {
  fleets: MoveFleet[];
  memberships: UserMemberships;
  // Device type slug → CPU architecture slug.
  architectures: Record<string, string>;
};

const slugOf = (rows: readonly { slug: string }[]): string => rows[0]?.slug ?? '';

export const fetchMoveData = async (
  client: FlotillaClient,
  userId: number,
  deviceTypes: readonly string[],
): Promise<MoveData> => {
  const [fleets, direct, teams, organizations, types] = await Promise.all([
    client.pine.get({
      resource: 'application',
      options: {
        $select: ['id', 'app_name', 'slug', 'organization'],
        $filter: {
          is_of__class: 'fleet',
          is_directly_accessible_by__user: { $any: { $alias: 'dau', $expr: { 1: 1 } } },
        },
        $expand: {
          is_for__device_type: {
            $select: ['slug'],
            $expand: { is_of__cpu_architecture: { $select: ['slug'] } },
          },
        },
        $orderby: { app_name: 'asc' },
      },
    }),
    client.pine.get({
      resource: 'user_application_membership',
      options: {
        $select: ['is_member_of__application'],
        $filter: { user: userId },
        $expand: { application_membership_role: { $select: ['name'] } },
      },
    }),
    client.pine.get({
      resource: 'team_application_access',
      options: {
        $select: ['grants_access_to__application'],
        $filter: {
          team: {
            $any: {
              $alias: 't',
              $expr: {
                t: { team_membership: { $any: { $alias: 'tm', $expr: { tm: { user: userId } } } } },
              },
            },
          },
        },
        $expand: { application_membership_role: { $select: ['name'] } },
      },
    }),
    client.pine.get({
      resource: 'organization_membership',
      options: {
        $select: ['is_member_of__organization'],
        $filter: { user: userId },
        $expand: { organization_membership_role: { $select: ['name'] } },
      },
    }),
    client.pine.get({
      resource: 'device_type',
      options: {
        $select: ['slug'],
        $filter: { slug: { $in: [...deviceTypes] } },
        $expand: { is_of__cpu_architecture: { $select: ['slug'] } },
      },
    }),
  ]);
  return {
    fleets: fleets.map((fleet) => ({
      id: fleet.id,
      app_name: fleet.app_name,
      slug: fleet.slug,
      organizationId: fleet.organization.__id,
      architecture: slugOf(
        fleet.is_for__device_type.flatMap((type) => type.is_of__cpu_architecture),
      ),
    })),
    memberships: {
      fleetMemberships: direct.flatMap((row) =>
        row.application_membership_role.map((role) => ({
          applicationId: row.is_member_of__application.__id,
          role: role.name,
        })),
      ),
      teamAccesses: teams.flatMap((row) =>
        row.application_membership_role.map((role) => ({
          applicationId: row.grants_access_to__application.__id,
          role: role.name,
        })),
      ),
      organizationMemberships: organizations.flatMap((row) =>
        row.organization_membership_role.map((role) => ({
          organizationId: row.is_member_of__organization.__id,
          role: role.name,
        })),
      ),
    },
    architectures: Object.fromEntries(
      types.map((type) => [type.slug, slugOf(type.is_of__cpu_architecture)]),
    ),
  };
};

export type MoveOption = MoveFleet & { block: string | null };

// Every fleet the user sees, disabled with the reason when the devices cannot move there.
export const moveOptions = (
  data: MoveData,
  devices: readonly { deviceType: string; applicationId: number }[],
): MoveOption[] =>
  data.fleets.map((fleet) => {
    const roles = fleetRolesOn(data.memberships, {
      id: fleet.id,
      organizationId: fleet.organizationId,
    });
    let block: string | null = null;
    if (devices.every((device) => device.applicationId === fleet.id)) block = moveMessages.same;
    else if (!mayMoveTo(roles)) block = moveMessages.permission;
    else if (
      devices.some(
        (device) =>
          !canRunArchitecture(data.architectures[device.deviceType] ?? '', fleet.architecture),
      )
    ) {
      block = moveMessages.architecture;
    }
    return { ...fleet, block };
  });

// balenaOS before 2.12.0 kept volumes per fleet (seed 001 section 5 storage warning).
export const losesStorageOnMove = (osVersion: string | null): boolean => {
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(osVersion ?? '');
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major < 2 || (major === 2 && minor < 12);
};
