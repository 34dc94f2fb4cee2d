// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { finishProfileStep, pendingProfileStep, rememberProfileStep } from './profile-step.js';

afterEach(() => window.localStorage.clear());

describe('the sign-up profile step', () => {
  it('is pending per user, with where to go afterwards, until finished', () => {
    expect(pendingProfileStep(7)).toBeNull();
    rememberProfileStep(7, '/orgs?tab=members');
    expect(pendingProfileStep(7)).toBe('/orgs?tab=members');
    expect(pendingProfileStep(8)).toBeNull();
    finishProfileStep(7);
    expect(pendingProfileStep(7)).toBeNull();
  });

  it('goes to / without a redirect, or with one that leaves the console', () => {
    for (const redirect of [null, '', 'https://evil.test/', '//evil.test/x']) {
      rememberProfileStep(7, redirect);
      expect(pendingProfileStep(7)).toBe('/');
    }
  });
});
