import { describe, expect, it } from 'vitest';
import { queuedActionText } from './queued-action-labels.js';

// The queue's list names an OS or supervisor update with the version it moves the device to.
describe('queued action labels', () => {
  it('names the version of an OS or supervisor update', () => {
    expect(queuedActionText({ action: 'os-update', params: { version: '6.1.0' } })).toBe(
      'OS update to balenaOS 6.1.0',
    );
    expect(queuedActionText({ action: 'supervisor-update', params: { version: '17.0.1' } })).toBe(
      'Supervisor update to v17.0.1',
    );
    expect(queuedActionText({ action: 'supervisor-update', params: { version: 'v17.0.1' } })).toBe(
      'Supervisor update to v17.0.1',
    );
  });

  it('falls back to the action alone', () => {
    expect(queuedActionText({ action: 'os-update', params: {} })).toBe('OS update');
    expect(queuedActionText({ action: 'reboot', params: { force: true } })).toBe('Reboot');
  });
});
