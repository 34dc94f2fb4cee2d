import { describe, expect, it } from 'vitest';
import { buildDeviceTypeManifest, downloadSizeOf } from './device-type-manifest.js';
import type { DeviceTypeRow } from './device-type-rows.js';

const row = (contract: Record<string, unknown> | null): DeviceTypeRow => ({
  slug: 'board',
  name: 'Board',
  is_private: false,
  contract,
  arch: 'aarch64',
  aliases: [],
});

describe('device type manifests', () => {
  it('derives the manifest keys the SDK reads', () => {
    const manifest = buildDeviceTypeManifest(row({ data: { media: { defaultBoot: 'sdcard' } } }));
    expect(manifest).toMatchObject({
      slug: 'board',
      name: 'Board',
      aliases: ['board'],
      arch: 'aarch64',
      state: 'RELEASED',
      private: false,
      isDependent: false,
      initialization: { operations: [{ command: 'burn' }] },
      yocto: { machine: 'board', image: 'balena-image', fstype: 'balenaos-img' },
    });
    expect(manifest.options).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'network', isGroup: true })]),
    );
  });

  it('uses a flasher image for internal storage and nothing to burn for VM images', () => {
    expect(
      buildDeviceTypeManifest(row({ data: { storage: { internal: true } } })).yocto.image,
    ).toBe('balena-image-flasher');
    expect(
      buildDeviceTypeManifest(row({ data: { media: { defaultBoot: 'image' } } })).initialization,
    ).toEqual({ options: [], operations: [] });
  });

  it('lets the contract override derived keys', () => {
    const manifest = buildDeviceTypeManifest(
      row({ state: 'DISCONTINUED', options: [], yocto: { machine: 'custom' } }),
    );
    expect(manifest.state).toBe('DISCONTINUED');
    expect(manifest.options).toEqual([]);
    expect(manifest.yocto).toEqual({ machine: 'custom' });
  });

  it('reads the download size from the contract, else 0', () => {
    expect(downloadSizeOf(row(null))).toBe(0);
    expect(downloadSizeOf(row({ data: { downloadSize: 123_456_789 } }))).toBe(123_456_789);
    expect(downloadSizeOf(row({ data: { downloadSize: 'big' } }))).toBe(0);
  });
});
