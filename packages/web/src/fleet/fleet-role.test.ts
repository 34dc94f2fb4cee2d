import { describe, expect, it } from 'vitest';
import { deniedReason, organizationAcceptsFleets } from './fleet-role.js';

describe('fleet permission texts', () => {
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
