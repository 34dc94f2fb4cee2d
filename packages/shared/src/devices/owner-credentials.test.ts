import { describe, expect, it } from 'vitest';
import { memberRemovalBlockedMessage, usesOwnerCredentials } from './owner-credentials.js';

describe('devices that still use their owner credentials', () => {
  it.each([
    ['6.99.99', '2.88.4', true],
    ['v6.4.2', 'balenaOS 2.88.4+rev1', true],
    ['7.0.0', '2.0.0', false],
    ['17.1.4', 'balenaOS 2.88.4+rev1', false],
    ['17.1.4', 'Resin OS 1.26.0', true],
    [null, null, false],
    ['unknown', '', false],
  ])('supervisor %s, OS %s: %s', (supervisor, os, expected) => {
    expect(usesOwnerCredentials({ supervisor_version: supervisor, os_version: os })).toBe(expected);
  });

  it('lists at most ten devices and counts the rest', () => {
    const names = Array.from({ length: 12 }, (_, index) => `d${index}`);
    const message = memberRemovalBlockedMessage('ann', names);
    expect(message).toContain('d0, d1, d2, d3, d4, d5, d6, d7, d8, d9 and 2 more');
    expect(message).toMatch(/^ann cannot be removed yet/);
  });
});
