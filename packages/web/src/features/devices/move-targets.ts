import { canRunArchitecture } from '@flotilla/shared/device-types/cpu-architectures';
import { fleetRolesOn, type UserMemberships } from '@flotilla/shared/permissions/fleet-access';
import { mayMoveTo } from '@flotilla/shared/permissions/field-permissions';

// The fleets a device can move to, each with why not when it cannot (permission, CPU
// architecture, already there): the same rules the server applies to a PATCH of
// belongs_to__application.

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

export type MoveOption = MoveFleet & { block: string | null };

// Every fleet the user sees, disabled with the reason when the devices cannot move there.
export const moveOptions = (
  data: MoveData,
  devices: readonly { deviceType: string; fleetId: number }[],
): MoveOption[] =>
  data.fleets.map((fleet) => {
    const roles = fleetRolesOn(data.memberships, {
      id: fleet.id,
      organizationId: fleet.organizationId,
    });
    let block: string | null = null;
    if (devices.every((device) => device.fleetId === fleet.id)) block = moveMessages.same;
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

// balenaOS before 2.12.0 kept volumes per fleet, so a move loses them (the storage warning).
export const losesStorageOnMove = (osVersion: string | null): boolean => {
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(osVersion ?? '');
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major < 2 || (major === 2 && minor < 12);
};
