import { z } from 'zod';

// What a platform administrator writes about one host OS or supervisor release, through the admin
// routes or a catalogue file (docs/HOST-OS-CATALOGUE.md describes the file).

// A plain semantic version, as balenaOS and the supervisor number their releases.
const semverPattern =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

const slug = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9][a-z0-9_.-]*$/, 'must be a slug such as raspberrypi4-64');

const version = z
  .string()
  .trim()
  .max(100)
  .regex(semverPattern, 'must be a semantic version such as 6.0.13 or 6.0.13+rev1');

const releasePhases = ['next', 'current', 'sunset', 'end-of-life'] as const;

// The image a device runs to move to this release (balenaOS's hostapp updater, the supervisor's
// own image): a registry reference such as registry.example.com/balena-os/raspberrypi4-64:6.0.13.
const imageReference = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .regex(/^[^\s]+$/, 'must be an image reference without spaces');

const described = {
  phase: z.enum(releasePhases).nullable(),
  knownIssues: z.string().max(10_000).nullable(),
  notes: z.string().max(100_000).nullable(),
  updaterImage: imageReference.nullable(),
  invalidated: z.boolean(),
};

const osEntry = z
  .object({
    kind: z.literal('os'),
    deviceType: slug,
    version,
    variant: z.enum(['prod', 'dev', '']).default(''),
    phase: described.phase.default(null),
    knownIssues: described.knownIssues.default(null),
    notes: described.notes.default(null),
    updaterImage: described.updaterImage.default(null),
    invalidated: described.invalidated.default(false),
  })
  .strict();

const supervisorEntry = z
  .object({
    kind: z.literal('supervisor'),
    cpuArchitecture: slug,
    version,
    phase: described.phase.default(null),
    knownIssues: described.knownIssues.default(null),
    notes: described.notes.default(null),
    updaterImage: described.updaterImage.default(null),
    invalidated: described.invalidated.default(false),
  })
  .strict();

export const catalogueEntry = z.discriminatedUnion('kind', [osEntry, supervisorEntry]);
export type CatalogueEntry = z.output<typeof catalogueEntry>;

export const catalogueFile = z.object({ releases: z.array(catalogueEntry).max(5000) }).strict();
export type CatalogueFile = z.output<typeof catalogueFile>;

// An edit of a release already in the catalogue: its identity (kind, device type or architecture,
// version, variant) stays; to change one, remove the release and add another.
export const catalogueEdit = z
  .object({
    phase: described.phase.optional(),
    knownIssues: described.knownIssues.optional(),
    notes: described.notes.optional(),
    updaterImage: described.updaterImage.optional(),
    invalidated: described.invalidated.optional(),
  })
  .strict()
  .refine((edit) => Object.values(edit).some((value) => value !== undefined), {
    message: 'nothing to change: give phase, knownIssues, notes, updaterImage or invalidated',
  });
export type CatalogueEdit = z.output<typeof catalogueEdit>;

// A catalogue release as the admin routes answer it.
export type CatalogueRelease = {
  id: number;
  kind: 'os' | 'supervisor';
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
  invalidated: boolean;
  createdAt: string;
};
