import { describe, expect, it } from 'vitest';
import { compareOsVersions, isEsrVersion, parseOsVersion } from './os-version.js';

const order = (a: string, b: string): number => {
  const left = parseOsVersion(a);
  const right = parseOsVersion(b);
  if (left == null || right == null) throw new Error(`unparsable: ${a} or ${b}`);
  return compareOsVersions(left, right);
};

describe('parseOsVersion', () => {
  it('reads the forms devices report and the catalogue stores', () => {
    expect(parseOsVersion('balenaOS 6.0.13')).toEqual({
      major: 6,
      minor: 0,
      patch: 13,
      prerelease: [],
      revision: 0,
      variant: null,
    });
    expect(parseOsVersion('2.88.4+rev1.prod')).toMatchObject({ revision: 1, variant: 'prod' });
    expect(parseOsVersion('v16.2.0')).toMatchObject({ major: 16, minor: 2, patch: 0 });
    expect(parseOsVersion('2.88.4-beta.1')).toMatchObject({ prerelease: ['beta', '1'] });
    expect(parseOsVersion('2.0.0-dev')).toMatchObject({ prerelease: [], variant: 'dev' });
  });

  it('refuses what is not a version', () => {
    for (const raw of [null, undefined, '', 'balenaOS', '6.0', 'latest', '6.0.x']) {
      expect(parseOsVersion(raw)).toBeNull();
    }
  });
});

describe('compareOsVersions', () => {
  it('orders by version, then pre-release, then revision, ignoring the variant', () => {
    expect(order('6.0.13', '6.0.2')).toBe(1);
    expect(order('6.0.2', '6.1.0')).toBe(-1);
    expect(order('7.0.0', '6.99.99')).toBe(1);
    expect(order('6.0.13-beta.1', '6.0.13')).toBe(-1);
    expect(order('6.0.13-beta.2', '6.0.13-beta.10')).toBe(-1);
    expect(order('6.0.13+rev1', '6.0.13')).toBe(1);
    expect(order('6.0.13+rev2', '6.0.13+rev10')).toBe(-1);
    expect(order('6.0.13+rev1.dev', '6.0.13+rev1.prod')).toBe(0);
    expect(order('balenaOS 6.0.13', '6.0.13')).toBe(0);
  });
});

describe('isEsrVersion', () => {
  it('is true for year-numbered releases only', () => {
    expect(
      isEsrVersion({
        major: 2021,
        minor: 10,
        patch: 2,
        prerelease: [],
        revision: 0,
        variant: null,
      }),
    ).toBe(true);
    expect(
      isEsrVersion({ major: 2000, minor: 0, patch: 0, prerelease: [], revision: 0, variant: null }),
    ).toBe(false);
    expect(
      isEsrVersion({ major: 6, minor: 0, patch: 0, prerelease: [], revision: 0, variant: null }),
    ).toBe(false);
  });
});
