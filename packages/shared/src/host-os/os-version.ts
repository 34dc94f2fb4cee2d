// balenaOS and supervisor version strings as devices report them and the catalogue stores them:
// `6.0.13`, `balenaOS 6.0.13`, `v16.2.0`, `2.88.4+rev1.prod`, `2.88.4-beta.1`.
export type OsVersion = {
  major: number;
  minor: number;
  patch: number;
  prerelease: readonly string[];
  revision: number;
  variant: 'dev' | 'prod' | null;
};

const versionPattern =
  /^(?:balenaOS\s+|Resin OS\s+)?v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?$/;

const variantOf = (parts: readonly string[]): 'dev' | 'prod' | null =>
  parts.includes('dev') ? 'dev' : parts.includes('prod') ? 'prod' : null;

export const parseOsVersion = (raw: string | null | undefined): OsVersion | null => {
  if (raw == null) return null;
  const match = versionPattern.exec(raw.trim());
  if (match == null) return null;
  const [, major = '', minor = '', patch = '', pre, build] = match;
  const prereleaseParts = pre == null ? [] : pre.split('.');
  const buildParts = build == null ? [] : build.split('.');
  const revisionPart = buildParts.find((part) => /^rev\d+$/.test(part));
  return {
    major: Number(major),
    minor: Number(minor),
    patch: Number(patch),
    // A variant written as a pre-release part (`2.0.0-dev`) names the image, not a pre-release.
    prerelease: prereleaseParts.filter((part) => part !== 'dev' && part !== 'prod'),
    revision: revisionPart == null ? 0 : Number(revisionPart.slice(3)),
    variant: variantOf([...prereleaseParts, ...buildParts]),
  };
};

const compareIdentifiers = (a: string, b: string): number => {
  const aNumeric = /^\d+$/.test(a);
  const bNumeric = /^\d+$/.test(b);
  if (aNumeric && bNumeric) return Math.sign(Number(a) - Number(b));
  if (aNumeric) return -1;
  if (bNumeric) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
};

const comparePrerelease = (a: readonly string[], b: readonly string[]): number => {
  // A release without pre-release parts is newer than any pre-release of the same version.
  if (a.length === 0 || b.length === 0) return Math.sign(b.length - a.length);
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    const order = compareIdentifiers(a[i] ?? '', b[i] ?? '');
    if (order !== 0) return order;
  }
  return Math.sign(a.length - b.length);
};

// Orders versions the way balenaOS numbers them: semantic version, then the `+revN` revision.
// The dev/prod variant is not part of the order.
export const compareOsVersions = (a: OsVersion, b: OsVersion): number =>
  Math.sign(a.major - b.major) ||
  Math.sign(a.minor - b.minor) ||
  Math.sign(a.patch - b.patch) ||
  comparePrerelease(a.prerelease, b.prerelease) ||
  Math.sign(a.revision - b.revision);

// Extended-support releases are numbered by year (`2021.10.2`), so their major is above 2000.
export const esrMajorAbove = 2000;

export const isEsrVersion = (version: OsVersion): boolean => version.major > esrMajorAbove;
