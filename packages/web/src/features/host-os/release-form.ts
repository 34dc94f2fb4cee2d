import { isEsrVersion, parseOsVersion } from '@flotilla/shared/host-os/os-version';
import {
  catalogueImagePattern,
  type CatalogueKind,
  type CatalogueDescription,
  type CatalogueRelease,
  catalogueReleasePhases,
  type CatalogueReleasePhase,
  catalogueVersionMessage,
  catalogueVersionPattern,
} from '@flotilla/shared/host-os/catalogue';

// What the add and edit dialogs hold while the administrator types: texts as typed, '' for none.
export type DescriptionDraft = {
  phase: CatalogueReleasePhase | '';
  knownIssues: string;
  notes: string;
  updaterImage: string;
  invalidated: boolean;
  // An ESR OS release's regular base version.
  baseVersion: string;
};

export const emptyDescription: DescriptionDraft = {
  phase: '',
  knownIssues: '',
  notes: '',
  updaterImage: '',
  invalidated: false,
  baseVersion: '',
};

export const draftOf = (release: CatalogueRelease): DescriptionDraft => ({
  phase: isPhase(release.phase) ? release.phase : '',
  knownIssues: release.knownIssues ?? '',
  notes: release.notes ?? '',
  updaterImage: release.updaterImage ?? '',
  invalidated: release.invalidated,
  baseVersion: release.baseVersion ?? '',
});

// Only an OS release of the ESR line (major above 2000) has a base version.
export const isEsrOsRelease = (kind: CatalogueKind, version: string): boolean => {
  const parsed = parseOsVersion(version.trim());
  return kind === 'os' && parsed !== null && isEsrVersion(parsed);
};

export const baseVersionOf = (draft: DescriptionDraft): string | null =>
  draft.baseVersion.trim() === '' ? null : draft.baseVersion.trim();

export const baseVersionProblem = (base: string): string | null => {
  const trimmed = base.trim();
  if (trimmed === '') return null;
  if (!catalogueVersionPattern.test(trimmed)) return `The base version ${catalogueVersionMessage}`;
  const parsed = parseOsVersion(trimmed);
  return parsed !== null && isEsrVersion(parsed)
    ? 'The base version must be a regular (non-ESR) version'
    : null;
};

export const isPhase = (value: string | null): value is CatalogueReleasePhase =>
  catalogueReleasePhases.some((phase) => phase === value);

const textOrNull = (value: string): string | null => (value.trim() === '' ? null : value);

// The draft as the server takes it: an empty text clears the field.
export const descriptionOf = (draft: DescriptionDraft): CatalogueDescription => ({
  phase: draft.phase === '' ? null : draft.phase,
  knownIssues: textOrNull(draft.knownIssues.trim()),
  notes: textOrNull(draft.notes),
  updaterImage: textOrNull(draft.updaterImage.trim()),
  invalidated: draft.invalidated,
});

// The same checks the server makes, so most mistakes show before anything is sent.
export const versionProblem = (version: string): string | null => {
  const trimmed = version.trim();
  if (trimmed === '') return 'The version is required';
  return catalogueVersionPattern.test(trimmed) ? null : `The version ${catalogueVersionMessage}`;
};

export const imageProblem = (image: string): string | null => {
  const trimmed = image.trim();
  return trimmed === '' || catalogueImagePattern.test(trimmed)
    ? null
    : 'The updater image must be an image reference without spaces';
};

// Only the fields the administrator changed are sent.
export const changedFields = (
  before: CatalogueDescription,
  after: CatalogueDescription,
): Partial<CatalogueDescription> => {
  const changed: Partial<CatalogueDescription> = {};
  if (before.phase !== after.phase) changed.phase = after.phase;
  if (before.knownIssues !== after.knownIssues) changed.knownIssues = after.knownIssues;
  if (before.notes !== after.notes) changed.notes = after.notes;
  if (before.updaterImage !== after.updaterImage) changed.updaterImage = after.updaterImage;
  if (before.invalidated !== after.invalidated) changed.invalidated = after.invalidated;
  return changed;
};
