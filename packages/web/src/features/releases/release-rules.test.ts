import { buildTimeoutMs, releaseRuleMessages } from '@flotilla/shared/releases/release-status';
import { describe, expect, it } from 'vitest';
import {
  onlyRunningCancelled,
  releaseActions,
  releaseStatusLabel,
  versionError,
} from './release-rules.js';

const now = new Date('2025-06-01T12:00:00.000Z');
const release = {
  status: 'success',
  start_timestamp: '2025-06-01T10:00:00.000Z',
  update_timestamp: '2025-06-01T10:05:00.000Z',
  is_final: true,
  is_invalidated: false,
  targetedByFleets: 0,
  pinnedDevices: 0,
};
const allowed = { updateDenied: null, deleteDenied: null };

describe('release actions', () => {
  it('allows everything but finalizing a final release', () => {
    expect(releaseActions(release, allowed, now)).toEqual({
      editVersion: null,
      toggleValidity: null,
      finalize: releaseRuleMessages.alreadyFinalized,
      cancelBuild: onlyRunningCancelled,
      delete: null,
    });
    expect(releaseActions({ ...release, is_final: false }, allowed, now).finalize).toBeNull();
  });

  it('refuses validating or invalidating failed builds, a stale running one included', () => {
    for (const status of ['failed', 'error', 'interrupted', 'cancelled', 'timeout']) {
      expect(releaseActions({ ...release, status }, allowed, now).toggleValidity).toBe(
        releaseRuleMessages.cannotValidateFailed,
      );
    }
    const running = { ...release, status: 'running', update_timestamp: now.toISOString() };
    expect(releaseActions(running, allowed, now).toggleValidity).toBeNull();
    const later = new Date(now.getTime() + buildTimeoutMs + 1);
    expect(releaseActions(running, allowed, later).toggleValidity).toBe(
      releaseRuleMessages.cannotValidateFailed,
    );
    expect(releaseStatusLabel(running, later)).toBe('Failed');
    expect(releaseStatusLabel(running, now)).toBe('Running');
  });

  it('cancels only a build still running', () => {
    const running = { ...release, status: 'running', update_timestamp: now.toISOString() };
    expect(releaseActions(running, allowed, now).cancelBuild).toBeNull();
    const later = new Date(now.getTime() + buildTimeoutMs + 1);
    expect(releaseActions(running, allowed, later).cancelBuild).toBe(onlyRunningCancelled);
    expect(releaseActions({ ...release, status: 'failed' }, allowed, now).cancelBuild).toBe(
      onlyRunningCancelled,
    );
  });

  it('refuses deleting a release a fleet should run or a device is pinned to', () => {
    for (const targets of [{ targetedByFleets: 1 }, { pinnedDevices: 2 }]) {
      expect(releaseActions({ ...release, ...targets }, allowed, now).delete).toBe(
        releaseRuleMessages.cannotDeletePinned,
      );
    }
  });

  it('puts the missing permission first', () => {
    const denied = { updateDenied: 'no update', deleteDenied: 'no delete' };
    expect(
      releaseActions({ ...release, status: 'failed', targetedByFleets: 1 }, denied, now),
    ).toEqual({
      editVersion: 'no update',
      toggleValidity: 'no update',
      finalize: 'no update',
      cancelBuild: 'no update',
      delete: 'no delete',
    });
  });
});

describe('version edit', () => {
  it('takes three-digit semver only', () => {
    for (const good of ['1.2.3', '0.0.0', ' 10.20.30 ']) expect(versionError(good)).toBeNull();
    for (const bad of ['1.2', '1.2.3-beta', '1.2.3+build', 'v1.2.3', '01.2.3', '']) {
      expect(versionError(bad)).toMatch(/three numbers/);
    }
  });
});
