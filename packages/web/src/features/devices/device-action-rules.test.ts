import { describe, expect, it } from 'vitest';
import {
  type ActionDevice,
  actionDeviceOf,
  actionMessages,
  containerActionBlock,
  type Denied,
  deviceActionBlock,
  queuesOffline,
  planBatch,
  supervisorMajor,
  supportsBlink,
} from './device-action-rules.js';

const online: ActionDevice = {
  isConnected: true,
  supervisorVersion: '16.4.2',
  isInLocalMode: false,
  isActive: true,
  localModeBlock: null,
  supportsBlink: true,
};
const allowAll: Denied = () => null;
// Holds everything but the given permissions (as useFleetRole's `denied` answers).
const lacking =
  (...missing: string[]): Denied =>
  (resource, action) =>
    missing.includes(`${resource}.${action}`)
      ? 'Observers do not have permission to do this'
      : null;

describe('deviceActionBlock', () => {
  it('allows every action on an online device with the permissions', () => {
    for (const action of [
      'restart',
      'reboot',
      'shutdown',
      'identify',
      'purge',
      'rename',
      'notes',
      'delete',
    ] as const) {
      expect(deviceActionBlock(action, online, allowAll)).toBeNull();
    }
  });

  it('gates each action by the permission of the seed table', () => {
    const noProxy = lacking('device.supervisor-proxy-write');
    for (const action of ['restart', 'reboot', 'shutdown', 'identify', 'purge'] as const) {
      expect(deviceActionBlock(action, online, noProxy)).toBe(
        'Observers do not have permission to do this',
      );
    }
    expect(deviceActionBlock('rename', online, noProxy)).toBeNull();
    expect(deviceActionBlock('delete', online, noProxy)).toBeNull();

    const noUpdate = lacking('device.update');
    expect(deviceActionBlock('rename', online, noUpdate)).not.toBeNull();
    expect(deviceActionBlock('notes', online, noUpdate)).not.toBeNull();
    expect(deviceActionBlock('reboot', online, noUpdate)).toBeNull();

    const noDelete = lacking('device.delete');
    expect(deviceActionBlock('delete', online, noDelete)).not.toBeNull();
    expect(deviceActionBlock('rename', online, noDelete)).toBeNull();
  });

  it('names the missing permission before the device state', () => {
    const offline = { ...online, isConnected: false };
    expect(deviceActionBlock('reboot', offline, lacking('device.supervisor-proxy-write'))).toBe(
      'Observers do not have permission to do this',
    );
  });

  it('lets an offline device queue the supervisor actions instead of refusing them', () => {
    const offline = { ...online, isConnected: false };
    for (const action of ['restart', 'reboot', 'shutdown', 'identify', 'purge'] as const) {
      expect(deviceActionBlock(action, offline, allowAll)).toBeNull();
      expect(queuesOffline(action, offline)).toBe(true);
      expect(queuesOffline(action, online)).toBe(false);
    }
    expect(queuesOffline('rename', offline)).toBe(false);
    expect(deviceActionBlock('rename', offline, allowAll)).toBeNull();
    expect(deviceActionBlock('notes', offline, allowAll)).toBeNull();
    expect(deviceActionBlock('delete', offline, allowAll)).toBeNull();
  });

  it('waits for provisioning before supervisor actions', () => {
    const unprovisioned = { ...online, isConnected: false, supervisorVersion: null };
    expect(deviceActionBlock('reboot', unprovisioned, allowAll)).toBe(
      'Action not supported until fully provisioned',
    );
  });

  it('refuses restart and purge in local mode, not reboot, shutdown or identify', () => {
    const local = { ...online, isInLocalMode: true };
    expect(deviceActionBlock('restart', local, allowAll)).toBe('Not available in local mode');
    expect(deviceActionBlock('purge', local, allowAll)).toBe('Not available in local mode');
    expect(deviceActionBlock('reboot', local, allowAll)).toBeNull();
    expect(deviceActionBlock('shutdown', local, allowAll)).toBeNull();
    expect(deviceActionBlock('identify', local, allowAll)).toBeNull();
  });

  it('refuses identify on device types without an LED', () => {
    expect(deviceActionBlock('identify', { ...online, supportsBlink: false }, allowAll)).toBe(
      'Device does not support blinking',
    );
    // Unknown (contract not loaded): the device decides.
    expect(
      deviceActionBlock('identify', { ...online, supportsBlink: undefined }, allowAll),
    ).toBeNull();
  });
});

describe('deviceActionBlock for local mode', () => {
  const notDev = 'Local mode is only available on development OS variants';

  it('blocks entering local mode on an ineligible device with its reason', () => {
    expect(deviceActionBlock('local-mode', { ...online, localModeBlock: notDev }, allowAll)).toBe(
      notDev,
    );
    expect(deviceActionBlock('local-mode', online, allowAll)).toBeNull();
  });

  it('lets an ineligible device in local mode leave it', () => {
    const stuck = { ...online, isInLocalMode: true, localModeBlock: notDev };
    expect(deviceActionBlock('local-mode', stuck, allowAll)).toBeNull();
  });

  it('names the missing permission before the eligibility', () => {
    const denied = lacking('device_config_variable.all');
    expect(deviceActionBlock('local-mode', { ...online, localModeBlock: notDev }, denied)).toBe(
      'Observers do not have permission to do this',
    );
  });

  it('skips ineligible devices in batch and blocks when none is eligible', () => {
    const prod = { ...online, localModeBlock: notDev };
    const mixed = planBatch('local-mode', [prod, online], (device) => device, allowAll);
    expect(mixed.block).toBeNull();
    expect(mixed.eligible).toEqual([online]);
    expect(mixed.skipped).toEqual([{ item: prod, reason: notDev }]);
    expect(planBatch('local-mode', [prod], (device) => device, allowAll).block).toBe(notDev);
  });
});

describe('containerActionBlock', () => {
  const block = (
    action: 'start' | 'stop' | 'restart',
    status: string,
    pending = false,
    device = online,
    denied = allowAll,
  ) => containerActionBlock(action, status, pending, device, denied);

  it('disables start when running, stop when exited or stopped, restart when exited', () => {
    expect(block('start', 'Running')).toBe(actionMessages.running);
    expect(block('stop', 'Running')).toBeNull();
    expect(block('restart', 'Running')).toBeNull();
    expect(block('start', 'Unhealthy')).toBe(actionMessages.running);
    expect(block('stop', 'Unhealthy')).toBeNull();
    expect(block('restart', 'Unhealthy')).toBeNull();

    expect(block('start', 'exited')).toBeNull();
    expect(block('stop', 'exited')).toBe(actionMessages.stopped);
    expect(block('restart', 'exited')).toBe(actionMessages.exited);

    expect(block('start', 'Stopped')).toBeNull();
    expect(block('stop', 'Stopped')).toBe(actionMessages.stopped);
    expect(block('restart', 'Stopped')).toBeNull();

    for (const action of ['start', 'stop', 'restart'] as const) {
      expect(block(action, 'Downloading')).toBeNull();
    }
  });

  it('disables all of them while an action is pending', () => {
    for (const status of ['Running', 'exited', 'Stopped', 'Downloading']) {
      for (const action of ['start', 'stop', 'restart'] as const) {
        expect(block(action, status, true)).not.toBeNull();
      }
    }
    expect(block('stop', 'Running', true)).toBe(actionMessages.pending);
  });

  it('needs supervisor 7 or later', () => {
    const old = { ...online, supervisorVersion: '6.6.0' };
    expect(block('stop', 'Running', false, old)).toBe(
      'Container control needs supervisor version 7 or later',
    );
    expect(block('stop', 'Running', false, { ...online, supervisorVersion: '7.0.0' })).toBeNull();
    expect(block('stop', 'Running', false, { ...online, supervisorVersion: 'v14.1.0' })).toBeNull();
  });

  it('needs the permission, an online device and no local mode', () => {
    expect(block('stop', 'Running', false, online, lacking('device.supervisor-proxy-write'))).toBe(
      'Observers do not have permission to do this',
    );
    expect(block('stop', 'Running', false, { ...online, isConnected: false })).toBe(
      'Device must be online',
    );
    expect(block('stop', 'Running', false, { ...online, isInLocalMode: true })).toBe(
      'Not available in local mode',
    );
  });

  it('lets an offline device get the action queued when the table offers it', () => {
    const offline = { ...online, isConnected: false };
    expect(containerActionBlock('restart', 'Running', false, offline, allowAll, true)).toBeNull();
    expect(
      containerActionBlock(
        'stop',
        'Running',
        false,
        offline,
        lacking('device.supervisor-proxy-write'),
        true,
      ),
    ).toBe('Observers do not have permission to do this');
    expect(containerActionBlock('start', 'Running', false, offline, allowAll, true)).toBe(
      actionMessages.running,
    );
  });
});

describe('planBatch', () => {
  const devices = [
    { name: 'a', state: online },
    { name: 'b', state: { ...online, supervisorVersion: null } },
    { name: 'c', state: online },
  ];
  const plan = (action: 'reboot' | 'delete', items = devices, denied = allowAll) =>
    planBatch(action, items, (item) => item.state, denied);

  it('runs on the allowed devices and lists the others with their reason', () => {
    const result = plan('reboot');
    expect(result.block).toBeNull();
    expect(result.eligible.map((item) => item.name)).toEqual(['a', 'c']);
    expect(result.skipped).toEqual([
      { item: devices[1], reason: 'Action not supported until fully provisioned' },
    ]);
    // Deleting does not need a provisioned device.
    expect(plan('delete').eligible).toHaveLength(3);
  });

  it('is blocked when nothing is selected or no device qualifies', () => {
    expect(plan('reboot', []).block).toBe('No devices selected');
    expect(plan('reboot', devices.slice(1, 2)).block).toBe(
      'Action not supported until fully provisioned',
    );
    expect(plan('delete', devices, lacking('device.delete')).block).toBe(
      'Observers do not have permission to do this',
    );
  });
});

describe('device state helpers', () => {
  it('reads the supervisor major version', () => {
    expect(supervisorMajor('16.4.2')).toBe(16);
    expect(supervisorMajor('v6.0.1')).toBe(6);
    expect(supervisorMajor(null)).toBeNull();
    expect(supervisorMajor('unknown')).toBeNull();
  });

  it('derives local mode, blink support and connectivity from the rows', () => {
    const row = {
      is_connected_to_vpn: true,
      is_active: true,
      supervisor_version: '14.0.0',
      os_version: 'balenaOS 5.0.0',
      os_variant: 'prod',
      device_config_variable: [{ name: 'BALENA_SUPERVISOR_LOCAL_MODE', value: '1' }],
      is_of__device_type: [{ slug: 'generic', contract: { data: { led: false } } }],
    };
    expect(actionDeviceOf(row)).toEqual({
      isConnected: true,
      supervisorVersion: '14.0.0',
      isInLocalMode: true,
      isActive: true,
      localModeBlock: 'Local mode is only available on development OS variants',
      supportsBlink: false,
    });
    expect(actionDeviceOf({ ...row, device_config_variable: [] }).isInLocalMode).toBe(false);
    // balena-supervisor reads "0" and "false" as off.
    expect(
      actionDeviceOf({
        ...row,
        device_config_variable: [{ name: 'RESIN_SUPERVISOR_LOCAL_MODE', value: '0' }],
      }).isInLocalMode,
    ).toBe(false);
    expect(actionDeviceOf({ ...row, os_variant: 'dev' }).localModeBlock).toBeNull();
    expect(supportsBlink({ data: { led: true } })).toBe(true);
    expect(supportsBlink(null)).toBeUndefined();
  });

  it('says a device is already inactive before deactivating it, after the permission', () => {
    expect(deviceActionBlock('deactivate', { ...online, isActive: false }, allowAll)).toBe(
      'Device already inactive',
    );
    expect(deviceActionBlock('deactivate', online, allowAll)).toBeNull();
    const denyAll: Denied = () => 'You do not have the required permission';
    expect(deviceActionBlock('deactivate', { ...online, isActive: false }, denyAll)).toBe(
      'You do not have the required permission',
    );
  });
});
