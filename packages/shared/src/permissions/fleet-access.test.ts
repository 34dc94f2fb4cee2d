import { describe, expect, it } from 'vitest';
import {
  fleetPermissionsOf,
  fleetRolesOn,
  grantsOnFleet,
  rolesOnFleet,
  type UserMemberships,
} from './fleet-access.js';
import { grants } from './permissions.js';

const fleet = { id: 7, organizationId: 3 };

const memberships = (
  direct: string[],
  team: string[],
  organization: string[],
  elsewhere = false,
): UserMemberships => ({
  fleetMemberships: direct.map((role) => ({ fleetId: elsewhere ? 8 : fleet.id, role })),
  teamAccesses: team.map((role) => ({ fleetId: elsewhere ? 8 : fleet.id, role })),
  organizationMemberships: organization.map((role) => ({
    organizationId: elsewhere ? 4 : fleet.organizationId,
    role,
  })),
});

describe('roles on a fleet', () => {
  it('collects direct, team and organization roles, highest first', () => {
    expect(fleetRolesOn(memberships(['observer'], ['operator'], ['member']), fleet)).toEqual([
      'operator',
      'observer',
    ]);
    expect(fleetRolesOn(memberships([], [], ['administrator']), fleet)).toEqual(['administrator']);
    expect(fleetRolesOn(memberships(['not-a-role'], [], []), fleet)).toEqual([]);
  });

  it('ignores memberships of other fleets and organizations', () => {
    expect(
      fleetRolesOn(memberships(['developer'], ['operator'], ['administrator'], true), fleet),
    ).toEqual([]);
  });

  it('adds the organization role and the session platform roles', () => {
    const held = grantsOnFleet(memberships(['observer'], [], ['member']), fleet);
    expect(rolesOnFleet(held, [])).toEqual(['observer', 'member']);
    expect(
      rolesOnFleet(
        grantsOnFleet(memberships([], [], ['administrator']), fleet),
        ['support.home'],
        true,
      ),
    ).toEqual(['support_agent', 'administrator']);
  });

  it('gives a support agent its role only while the fleet grants support access', () => {
    const none = grantsOnFleet(memberships([], [], []), fleet);
    expect(rolesOnFleet(none, ['support.home'])).toEqual([]);
    expect(fleetPermissionsOf(rolesOnFleet(none, ['support.home']))).toEqual([]);
    expect(rolesOnFleet(none, ['support.home'], false)).toEqual([]);
    expect(rolesOnFleet(none, ['support.home'], true)).toEqual(['support_agent']);
    // Platform administrators are not bound by support access.
    expect(rolesOnFleet(none, ['admin.home'])).toEqual(['balena_admin']);
  });

  it('answers permissions from the shared permission table', () => {
    const developer = fleetPermissionsOf(['developer']);
    expect(grants(developer, 'application', 'update')).toBe(true);
    expect(grants(developer, 'application', 'delete')).toBe(false);
    const administrator = fleetPermissionsOf(['administrator', 'member']);
    expect(grants(administrator, 'application', 'delete')).toBe(true);
    expect(grants(administrator, 'application', 'transfer')).toBe(true);
    expect(grants(fleetPermissionsOf(['observer', 'member']), 'application', 'update')).toBe(false);
    // Support agents read (under support access only: the server's filter) and change nothing.
    expect(grants(fleetPermissionsOf(['support_agent']), 'application', 'read')).toBe(true);
    expect(grants(fleetPermissionsOf(['support_agent']), 'application', 'update')).toBe(false);
    expect(grants(fleetPermissionsOf(['support_agent']), 'device', 'update')).toBe(false);
  });
});
