import type { DeviceTypeRow } from './device-type-rows.js';

// A device-type.json manifest as the SDK's config.getDeviceTypes / getDeviceTypeManifestBySlug /
// getDeviceOptions read it (balena-sdk types/device-type-json.d.ts). Built from the catalogue
// row; any of these keys present in the contract wins over the derived default.
export type DeviceTypeManifest = {
  slug: string;
  name: string;
  aliases: string[];
  arch: string;
  state: string;
  private: boolean;
  isDependent: boolean;
  options: unknown[];
  initialization: Record<string, unknown>;
  yocto: Record<string, unknown>;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const recordAt = (value: unknown, key: string): Record<string, unknown> =>
  isRecord(value) && isRecord(value[key]) ? value[key] : {};

// The configuration form of the OS image download (what /download-config accepts).
const standardOptions = [
  {
    isGroup: true,
    isCollapsible: false,
    collapsed: false,
    name: 'network',
    message: 'Network',
    options: [
      {
        name: 'network',
        message: 'Network Connection',
        type: 'list',
        choices: ['ethernet', 'wifi'],
        default: 'ethernet',
      },
      {
        name: 'wifiSsid',
        message: 'Wifi SSID',
        type: 'text',
        default: '',
        when: { network: 'wifi' },
      },
      {
        name: 'wifiKey',
        message: 'Wifi Passphrase',
        type: 'password',
        default: '',
        when: { network: 'wifi' },
      },
    ],
  },
  {
    isGroup: true,
    isCollapsible: true,
    collapsed: true,
    name: 'advanced',
    message: 'Advanced',
    options: [
      {
        name: 'appUpdatePollInterval',
        message: 'Check for updates every X minutes',
        type: 'number',
        min: 10,
        default: 10,
      },
    ],
  },
];

// Writing an image to boot media needs a drive; virtual machine images need nothing.
const initializationFor = (defaultBoot: unknown): Record<string, unknown> =>
  defaultBoot === 'image'
    ? { options: [], operations: [] }
    : {
        options: [{ name: 'drive', message: 'Select a drive', type: 'drive' }],
        operations: [{ command: 'burn' }],
      };

export const buildDeviceTypeManifest = (row: DeviceTypeRow): DeviceTypeManifest => {
  const contract = row.contract ?? {};
  const data = recordAt(contract, 'data');
  // Devices that boot from internal storage are installed with a flasher image.
  const image =
    recordAt(data, 'storage').internal === true ? 'balena-image-flasher' : 'balena-image';
  return {
    slug: row.slug,
    name: row.name,
    aliases: row.aliases.length > 0 ? row.aliases : [row.slug],
    arch: row.arch,
    state: typeof contract.state === 'string' ? contract.state : 'RELEASED',
    private: row.is_private,
    isDependent: false,
    options: Array.isArray(contract.options) ? contract.options : standardOptions,
    initialization: isRecord(contract.initialization)
      ? contract.initialization
      : initializationFor(recordAt(data, 'media').defaultBoot),
    yocto: isRecord(contract.yocto)
      ? contract.yocto
      : {
          machine: row.slug,
          image,
          fstype: 'balenaos-img',
          deployArtifact: `${image}-${row.slug}.balenaos-img`,
          compressed: true,
        },
  };
};

// Estimated OS image download size in bytes: the contract's `data.downloadSize` when the
// catalogue records one, otherwise 0 (Flotilla hosts no OS images to measure).
export const downloadSizeOf = (row: DeviceTypeRow): number => {
  const size = recordAt(row.contract, 'data').downloadSize;
  return typeof size === 'number' && Number.isFinite(size) && size >= 0 ? Math.round(size) : 0;
};
