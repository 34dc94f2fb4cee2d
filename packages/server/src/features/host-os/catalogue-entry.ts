import {
  catalogueImagePattern,
  catalogueLimits,
  catalogueReleasePhases,
  catalogueVariants,
  catalogueVersionMessage,
  catalogueVersionPattern,
} from '@flotilla/shared/host-os/catalogue';
import { z } from 'zod';

// What a platform administrator writes about one host OS or supervisor release, through the admin
// routes or a catalogue file (docs/HOST-OS.md describes the file).

const slug = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9][a-z0-9_.-]*$/, 'must be a slug such as raspberrypi4-64');

const version = z
  .string()
  .trim()
  .max(catalogueLimits.version)
  .regex(catalogueVersionPattern, catalogueVersionMessage);

// The image a device runs to move to this release (balenaOS's hostapp updater, the supervisor's
// own image): a registry reference such as registry.example.com/balena-os/raspberrypi4-64:6.0.13.
const imageReference = z
  .string()
  .trim()
  .min(1)
  .max(catalogueLimits.updaterImage)
  .regex(catalogueImagePattern, 'must be an image reference without spaces');

const described = {
  phase: z.enum(catalogueReleasePhases).nullable(),
  knownIssues: z.string().max(catalogueLimits.knownIssues).nullable(),
  notes: z.string().max(catalogueLimits.notes).nullable(),
  updaterImage: imageReference.nullable(),
  invalidated: z.boolean(),
};

const osEntry = z
  .object({
    kind: z.literal('os'),
    deviceType: slug,
    version,
    variant: z.enum(catalogueVariants).default(''),
    phase: described.phase.default(null),
    knownIssues: described.knownIssues.default(null),
    notes: described.notes.default(null),
    updaterImage: described.updaterImage.default(null),
    invalidated: described.invalidated.default(false),
    // An ESR release's regular base version (balena's `meta-balena-base` release tag); left out
    // it is cleared, as other fields are.
    baseVersion: version.nullable().optional(),
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
    baseVersion: version.nullable().optional(),
  })
  .strict()
  .refine((edit) => Object.values(edit).some((value) => value !== undefined), {
    message:
      'nothing to change: give phase, knownIssues, notes, updaterImage, invalidated or baseVersion',
  });
export type CatalogueEdit = z.output<typeof catalogueEdit>;
