// The host OS catalogue as the admin routes (/admin/v1/host-os) and the console's catalogue
// screens share it: the releases an operator keeps for the devices' host OS and supervisor.

export type CatalogueKind = 'os' | 'supervisor';

export const catalogueReleasePhases = ['next', 'current', 'sunset', 'end-of-life'] as const;
export type CatalogueReleasePhase = (typeof catalogueReleasePhases)[number];

// `''`: one image serving both development and production modes.
export const catalogueVariants = ['prod', 'dev', ''] as const;
export type CatalogueVariant = (typeof catalogueVariants)[number];

// A plain semantic version, as balenaOS and the supervisor number their releases.
export const catalogueVersionPattern =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

export const catalogueVersionMessage = 'must be a semantic version such as 6.0.13 or 6.0.13+rev1';

// The image a device runs to move to a release: a registry reference without spaces.
export const catalogueImagePattern = /^[^\s]+$/;

export const catalogueLimits = {
  version: 100,
  knownIssues: 10_000,
  notes: 100_000,
  updaterImage: 500,
} as const;

// A catalogue release as the admin routes answer it.
// The release tag holding the regular version an ESR release was cut from (balena's name, which
// balena-sdk reads as basedOnVersion).
export const esrBaseVersionTag = 'meta-balena-base';

export type CatalogueRelease = {
  id: number;
  kind: CatalogueKind;
  // The host application (balena_os/<device type>) or supervisor application
  // (balena_os/<architecture>-supervisor) holding it.
  application: string;
  deviceType: string | null;
  cpuArchitecture: string;
  version: string;
  rawVersion: string;
  variant: string;
  phase: string | null;
  knownIssues: string | null;
  notes: string | null;
  updaterImage: string | null;
  // An ESR release's regular base version (null otherwise, or when not recorded).
  baseVersion: string | null;
  invalidated: boolean;
  createdAt: string;
  // How many devices are told to run it (their OS or supervisor release): while any is, the
  // release cannot be removed, only invalidated.
  devices: number;
};

// What describes a release besides its identity; an edit sends any of these.
export type CatalogueDescription = {
  phase: CatalogueReleasePhase | null;
  knownIssues: string | null;
  notes: string | null;
  updaterImage: string | null;
  invalidated: boolean;
};

// A new release (POST /admin/v1/host-os/releases, and each entry of a catalogue file).
export type CatalogueNewRelease =
  | ({
      kind: 'os';
      deviceType: string;
      version: string;
      variant: CatalogueVariant;
      baseVersion?: string | null;
    } & Partial<CatalogueDescription>)
  | ({
      kind: 'supervisor';
      cpuArchitecture: string;
      version: string;
    } & Partial<CatalogueDescription>);

export type CatalogueEditBody = Partial<CatalogueDescription> & { baseVersion?: string | null };

// What an import did, entry by entry.
export type CatalogueImportResult = { created: number; updated: number; unchanged: number };
