import { describe, expect, it } from 'vitest';
import {
  osUpdateProgress,
  pendingOsUpdate,
  pendingSupervisorUpdate,
  supervisorUpdateFailure,
} from './host-os-status.js';

const release = (raw_version: string) => ({ id: 1, raw_version, phase: null });

describe('pending host updates', () => {
  it('is the target release only while it is newer than what the device reports', () => {
    const target = [release('6.1.0')];
    const os = (os_version: string | null) =>
      pendingOsUpdate({ os_version, should_be_operated_by__release: target });
    expect(os('balenaOS 6.0.13')?.raw_version).toBe('6.1.0');
    // The catalogue points every device at the release it runs: no update.
    expect(os('balenaOS 6.1.0')).toBeNull();
    expect(os('balenaOS 6.1.0+rev1')).toBeNull();
    expect(pendingOsUpdate({ os_version: '6.0.0', should_be_operated_by__release: [] })).toBeNull();
    expect(
      pendingSupervisorUpdate({
        supervisor_version: '16.0.0',
        should_be_managed_by__release: [release('v17.0.0')],
      })?.raw_version,
    ).toBe('v17.0.0');
  });

  it('says what the device reports while it updates, and when it failed', () => {
    const target = release('6.1.0');
    expect(
      osUpdateProgress(target, { provisioning_state: null, provisioning_progress: null }),
    ).toEqual({ text: 'Updating OS to 6.1.0', failed: false });
    expect(
      osUpdateProgress(target, {
        provisioning_state: 'OS update: downloading balenaOS 6.1.0',
        provisioning_progress: 12,
      }),
    ).toEqual({ text: 'Updating OS to 6.1.0: downloading balenaOS 6.1.0 (12%)', failed: false });
    const failure =
      'OS update to balenaOS 6.1.0 failed: no space left; rolled back to balenaOS 6.0.13';
    expect(
      osUpdateProgress(target, { provisioning_state: failure, provisioning_progress: 50 }),
    ).toEqual({ text: failure, failed: true });
  });

  it('shows a failed supervisor update of the target release instead of an endless update', () => {
    const failed =
      'Supervisor update to 17.3.0 failed: it exited with code 1 before it reported in; rolled back to 17.2.0';
    expect(supervisorUpdateFailure(release('v17.3.0'), failed)).toBe(failed);
    // Another target (the operator chose a newer one): that update may still come.
    expect(supervisorUpdateFailure(release('17.4.0'), failed)).toBeNull();
    expect(supervisorUpdateFailure(release('17.3.0'), null)).toBeNull();
    expect(
      supervisorUpdateFailure(release('17.3.0'), 'OS update: downloading balenaOS 6.1.0'),
    ).toBeNull();
    // It is no step of an OS update.
    expect(
      osUpdateProgress(release('6.1.0'), {
        provisioning_state: failed,
        provisioning_progress: null,
      }),
    ).toEqual({ text: 'Updating OS to 6.1.0', failed: false });
  });
});
