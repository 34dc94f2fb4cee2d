import { FlotillaApiError } from '@flotilla/sdk/errors';
import { describe, expect, it } from 'vitest';
import { batchReport, updateLockMessage } from './batch-report.js';
import { actionSpecs } from './device-actions.js';

const apiError = (status: number, message: string) =>
  new FlotillaApiError({
    status,
    body: message,
    message,
    method: 'POST',
    path: '/supervisor/v1/reboot',
    token: 'a-session-token',
  });

const device = (name: string) => ({ name });
const ok = (name: string) => ({ item: device(name), ok: true as const, value: undefined });
const failed = (name: string, error: unknown) => ({
  item: device(name),
  ok: false as const,
  error,
});

describe('batchReport', () => {
  it('reports success with the device name or the count', () => {
    expect(batchReport(actionSpecs.reboot, [ok('pi-1')]).toast).toEqual({
      kind: 'success',
      text: 'Rebooting pi-1',
    });
    expect(batchReport(actionSpecs.identify, [ok('a'), ok('b'), ok('c')]).toast).toEqual({
      kind: 'success',
      text: 'Identifying 3 devices',
    });
  });

  it('names the devices that queued the action apart from those that ran it', () => {
    const queued = (name: string) => ({ item: device(name), ok: true as const, value: 'queued' });
    expect(batchReport(actionSpecs.reboot, [queued('pi-1')]).toast).toEqual({
      kind: 'success',
      text: 'Queued for pi-1 until it comes online',
    });
    expect(batchReport(actionSpecs.reboot, [ok('a'), queued('b'), queued('c')]).toast?.text).toBe(
      'Rebooting a. Queued for 2 devices until they come online',
    );
  });

  it('warns with the failure count and the first message on a partial failure', () => {
    const report = batchReport(actionSpecs.reboot, [
      ok('a'),
      failed('b', apiError(503, 'No online device(s) found')),
      failed('c', new Error('boom')),
    ]);
    expect(report.toast).toEqual({
      kind: 'warning',
      text: 'Operation failed for 2 of the selected items with Request error: No online device(s) found',
    });
    expect(report.locked).toEqual([]);
  });

  it('errors when every device failed', () => {
    const report = batchReport(actionSpecs.purge, [
      failed('a', apiError(503, 'No online device(s) found')),
      failed('b', apiError(503, 'No online device(s) found')),
    ]);
    expect(report.toast).toEqual({
      kind: 'error',
      text: 'Request error: No online device(s) found',
    });
  });

  it('sets update-lock refusals apart for the force link', () => {
    const report = batchReport(actionSpecs.reboot, [
      ok('a'),
      failed('b', apiError(423, 'Updates are locked')),
    ]);
    expect(report.toast).toEqual({ kind: 'success', text: 'Rebooting a' });
    expect(report.locked).toEqual([device('b')]);

    const allLocked = batchReport(actionSpecs.shutdown, [failed('b', apiError(423, 'locked'))]);
    expect(allLocked.toast).toBeNull();
    expect(allLocked.locked).toEqual([device('b')]);
    expect(updateLockMessage).toBe(
      'Some devices did not run the action because an update lock is set',
    );
  });

  it('counts a 423 as a failure for actions that cannot be forced', () => {
    const report = batchReport(actionSpecs.delete, [failed('b', apiError(423, 'locked'))]);
    expect(report.toast?.kind).toBe('error');
    expect(report.locked).toEqual([]);
  });
});
