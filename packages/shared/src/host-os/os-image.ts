// Provisioning images (docs/HOST-OS.md): an OS image per host OS release of the catalogue, which
// Add device hands out with the fleet's config.json written into its boot partition.

// An image as the admin routes list it.
export type OsImage = {
  release: number;
  deviceType: string;
  version: string;
  variant: string;
  filename: string;
  size: number;
  sha256: string;
  // The URL the server fetched the image from, or null for an upload.
  sourceUrl: string | null;
  createdAt: string;
};

// An image Add device offers: a valid release of the device type with an image.
export type OfferedOsImage = Pick<OsImage, 'release' | 'version' | 'variant' | 'filename' | 'size'>;

// The answer to POST /download-os-image: where the browser fetches the configured image (once,
// before `expiresAt`, without other credentials).
export type OsImageDownload = { url: string; expiresAt: string; filename: string };

export const osImageFilenameLimit = 255;

// The name the download gets: the fleet's, the device type's and the version's.
export const configuredImageName = (fleet: string, deviceType: string, version: string): string =>
  `${fleet}-${deviceType}-${version}.img`.replace(/[^A-Za-z0-9._+-]/g, '_');
