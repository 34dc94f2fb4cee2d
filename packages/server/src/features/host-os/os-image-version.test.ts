import { describe, expect, it } from 'vitest';
import type { OfferedOsImage } from '@flotilla/shared/host-os/os-image';
import { imageForVersion } from './os-image-version.js';

const image = (release: number, version: string, variant: string): OfferedOsImage => ({
  release,
  version,
  variant,
  filename: `os-${release}.img`,
  size: 1,
});

const offered = [
  image(1, '6.1.0', 'prod'),
  image(2, '6.0.13+rev1', 'dev'),
  image(3, '6.0.13+rev1', 'prod'),
  image(4, '6.0.13', 'dev'),
  image(5, '2025.1.0', 'prod'),
];

describe('imageForVersion', () => {
  it('finds the image of a version as balena-cli writes it', () => {
    expect(imageForVersion(offered, '6.1.0')?.release).toBe(1);
    expect(imageForVersion(offered, 'v6.1.0')?.release).toBe(1);
    expect(imageForVersion(offered, '2025.1.0')?.release).toBe(5);
  });

  it('tells revisions apart and prefers the production image when no variant is named', () => {
    expect(imageForVersion(offered, '6.0.13+rev1')?.release).toBe(3);
    expect(imageForVersion(offered, '6.0.13+rev1.dev')?.release).toBe(2);
    expect(imageForVersion(offered, '6.0.13.dev')?.release).toBe(4);
    expect(imageForVersion(offered, '6.0.13')?.release).toBe(4);
  });

  it('answers undefined for a version without an image and null for no version at all', () => {
    expect(imageForVersion(offered, '6.0.13.prod')).toBeUndefined();
    expect(imageForVersion(offered, '5.0.0')).toBeUndefined();
    expect(imageForVersion(offered, 'latest')).toBeNull();
    expect(imageForVersion(offered, '6.0')).toBeNull();
  });
});
