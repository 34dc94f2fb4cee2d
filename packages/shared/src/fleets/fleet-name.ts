import { fleetNameLength } from '../constants/limits.js';

export const applicationClasses = ['fleet', 'app', 'block'] as const;
export type ApplicationClass = (typeof applicationClasses)[number];

// 4 to 100 characters, a letter or digit first, then letters, digits, _ or -.
export const fleetNameProblem = (name: string): string | undefined => {
  if (name.length === 0) return 'name required';
  if (name.length < fleetNameLength.min) return `at least ${fleetNameLength.min} characters`;
  if (name.length > fleetNameLength.max) return `maximum ${fleetNameLength.max} characters`;
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name)) {
    return 'Must start with a letter or digit and contain only letters, digits, underscores or hyphens';
  }
  return undefined;
};

// A case-insensitive clash with another application of the organization.
export const fleetNameClash = (
  name: string,
  existing: readonly string[],
  className: ApplicationClass,
): string | undefined =>
  existing.some((other) => other.toLowerCase() === name.toLowerCase())
    ? `This name is already used by another ${className} in the organization`
    : undefined;
