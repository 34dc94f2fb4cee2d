import { compareOsVersions, parseOsVersion } from '@flotilla/shared/host-os/os-version';
import type { OfferedOsImage } from '@flotilla/shared/host-os/os-image';

// The version balena-sdk's os.download asks for, as balena-cli writes it: `6.0.13`, `v6.0.13`,
// `6.0.13+rev1`, `6.0.13.prod`, `6.0.13+rev1.dev`, `2025.1.0`. A variant written after a dot
// names the image, like `+dev`.
const requestedVersion = (raw: string) => {
  const trimmed = raw.trim();
  const dotted = /^(v?\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]*?)?)\.(dev|prod)$/.exec(trimmed);
  if (dotted === null) return parseOsVersion(trimmed);
  const [, base = '', variant = ''] = dotted;
  return parseOsVersion(base.includes('+') ? `${base}.${variant}` : `${base}+${variant}`);
};

// The image of `offered` (one device type's images) for a requested version: the same version
// and revision, of the variant asked for, or the production image when none is named (balenaOS
// images of one version differ only in that).
export const imageForVersion = (
  offered: readonly OfferedOsImage[],
  raw: string,
): OfferedOsImage | null | undefined => {
  const wanted = requestedVersion(raw);
  if (wanted === null) return null;
  const same = offered.filter((image) => {
    const version = parseOsVersion(image.version);
    return version !== null && compareOsVersions(version, wanted) === 0;
  });
  if (wanted.variant !== null) return same.find((image) => image.variant === wanted.variant);
  return same.find((image) => image.variant === 'prod') ?? same[0];
};
