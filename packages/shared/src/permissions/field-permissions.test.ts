import { describe, expect, it } from 'vitest';
import { mayChangeField, permissionParts } from './field-permissions.js';
import { fleetRolePermissions } from './permissions.js';

describe('field-level permissions the console gates with', () => {
  it('lets only roles holding resin.device.move change a device fleet', () => {
    expect(
      mayChangeField(fleetRolePermissions['safe-operator'], 'device', 'belongs_to__application'),
    ).toBe(false);
    expect(mayChangeField(fleetRolePermissions.operator, 'device', 'belongs_to__application')).toBe(
      true,
    );
    expect(mayChangeField(fleetRolePermissions.observer, 'device', 'belongs_to__application')).toBe(
      false,
    );
  });

  it('needs resin.application.deactivate-device for the active flag', () => {
    expect(mayChangeField(fleetRolePermissions['safe-operator'], 'device', 'is_active')).toBe(
      false,
    );
    expect(mayChangeField(fleetRolePermissions['safe-developer'], 'device', 'is_active')).toBe(
      true,
    );
  });

  it('needs only update for fields without a rule', () => {
    expect(mayChangeField(fleetRolePermissions['safe-operator'], 'device', 'device_name')).toBe(
      true,
    );
    expect(mayChangeField(fleetRolePermissions.observer, 'device', 'device_name')).toBe(false);
  });

  it('splits a permission string into resource and action', () => {
    expect(permissionParts('resin.application.deactivate-device')).toEqual({
      resource: 'application',
      action: 'deactivate-device',
    });
  });
});
