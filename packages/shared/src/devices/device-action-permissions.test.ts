import { describe, expect, it } from 'vitest';
import { deviceActions } from '../cloudlink/messages.js';
import {
  fleetRolePermissions,
  grants,
  platformRolePermissions,
} from '../permissions/permissions.js';
import { fleetRoles } from '../permissions/roles.js';
import {
  cloudlinkActionPermissions,
  containerActionPermissions,
  deviceActionPermissions,
  devicePanelPermissions,
} from './device-action-permissions.js';

describe('device action permissions', () => {
  it('names for every action a permission some fleet role holds, and not every role', () => {
    const refs = [
      ...deviceActions.map((action) => cloudlinkActionPermissions[action]),
      ...Object.values(deviceActionPermissions),
      ...Object.values(containerActionPermissions),
      ...Object.values(devicePanelPermissions),
    ];
    for (const { resource, action } of refs) {
      const holders = fleetRoles.filter((role) =>
        grants(fleetRolePermissions[role], resource, action),
      );
      // A misspelt action would be held by no role and silently deny everyone.
      expect(holders.length, `${resource}.${action}`).toBeGreaterThan(0);
      expect(holders, `${resource}.${action}`).not.toContain('observer');
    }
  });

  it('gives the console actions the permission of the cloudlink action they send', () => {
    expect(deviceActionPermissions.identify).toBe(cloudlinkActionPermissions.blink);
    expect(deviceActionPermissions.restart).toBe(cloudlinkActionPermissions['restart-services']);
    expect(containerActionPermissions.stop).toBe(cloudlinkActionPermissions['stop-service']);
    expect(deviceActionPermissions.delete).toEqual({ resource: 'device', action: 'delete' });
  });

  it('opens service shells to every role that acts on devices, the host OS to operators and up', () => {
    const holders = (resource: string, action: string) =>
      fleetRoles.filter((role) => grants(fleetRolePermissions[role], resource, action));
    const service = devicePanelPermissions['terminal-service'];
    const host = devicePanelPermissions['terminal-host'];
    expect(holders(service.resource, service.action)).toEqual(
      fleetRoles.filter((role) => role !== 'observer'),
    );
    expect(holders(host.resource, host.action).toSorted()).toEqual(
      ['administrator', 'developer', 'operator'].toSorted(),
    );
    expect(platformRolePermissions.support_agent).toEqual(
      expect.arrayContaining(['resin.device.ssh', 'resin.device.ssh-host']),
    );
  });

  // Operators add deactivate, move and config variables to safe-operators.
  it.each(['move', 'deactivate', 'local-mode'] as const)(
    'lets operators and above %s, not safe-operators',
    (id) => {
      const { resource, action } = deviceActionPermissions[id];
      const holders = fleetRoles.filter((role) =>
        grants(fleetRolePermissions[role], resource, action),
      );
      expect(holders).toContain('operator');
      expect(holders).not.toContain('safe-operator');
    },
  );

  it.each(['pin', 'public-url', 'support-access'] as const)(
    'lets safe-operators %s (resin.device.update)',
    (id) => {
      expect(deviceActionPermissions[id]).toEqual({ resource: 'device', action: 'update' });
      expect(grants(fleetRolePermissions['safe-operator'], 'device', 'update')).toBe(true);
    },
  );

  it('lets safe-operators update the OS but only operators and up update the supervisor', () => {
    const holders = (id: 'os-update' | 'supervisor-update') => {
      const { resource, action } = deviceActionPermissions[id];
      return fleetRoles.filter((role) => grants(fleetRolePermissions[role], resource, action));
    };
    expect(deviceActionPermissions['os-update']).toEqual({
      resource: 'device',
      action: 'actions-proxy-hup',
    });
    expect(holders('os-update')).toContain('safe-operator');
    expect(holders('supervisor-update')).toContain('operator');
    expect(holders('supervisor-update')).not.toContain('safe-operator');
  });
});
