import { describe, expect, it } from 'vitest';
import {
  deniedReason,
  fleetPermissionsOf,
  fleetRolesOf,
  organizationAcceptsFleets,
} from './fleet-role.js';
import { grants } from '@flotilla/shared/permissions/permissions';

const rows = (fleet: string[], team: string[], organization: string[]) => ({
  memberships: fleet.map((name, id) => ({ id, application_membership_role: [{ name }] })),
  teamAccesses: team.map((name) => ({ application_membership_role: [{ name }] })),
  organizationMemberships: organization.map((name) => ({
    organization_membership_role: [{ name }],
  })),
});

describe('fleet roles', () => {
  it('collects direct, team, organization and platform roles, highest first', () => {
    expect(fleetRolesOf(rows(['observer'], ['operator'], ['member']), [])).toEqual([
      'operator',
      'observer',
      'member',
    ]);
    expect(fleetRolesOf(rows([], [], ['administrator']), ['support.home'])).toEqual([
      'support_agent',
      'administrator',
    ]);
    expect(fleetRolesOf(rows(['not-a-role'], [], []), [])).toEqual([]);
  });

  it('answers from the shared permission table', () => {
    const developer = fleetPermissionsOf(['developer']);
    expect(grants(developer, 'application', 'update')).toBe(true);
    expect(grants(developer, 'application', 'delete')).toBe(false);
    const administrator = fleetPermissionsOf(['administrator', 'member']);
    expect(grants(administrator, 'application', 'delete')).toBe(true);
    expect(grants(administrator, 'application', 'transfer')).toBe(true);
    expect(grants(fleetPermissionsOf(['observer', 'member']), 'application', 'update')).toBe(false);
    expect(grants(fleetPermissionsOf(['support_agent']), 'application', 'read')).toBe(false);
  });

  it('names the roles lacking a permission', () => {
    expect(deniedReason('application', 'delete')).toBe(
      'Observers, limited operators, operators, limited developers and developers do not have permission to do this',
    );
    expect(deniedReason('nothing', 'at-all')).toBe('You do not have the required permission');
  });

  it('lets only organization administrators receive fleets', () => {
    expect(organizationAcceptsFleets('administrator')).toBe(true);
    expect(organizationAcceptsFleets('member')).toBe(false);
    expect(organizationAcceptsFleets('developer')).toBe(false);
  });
});
