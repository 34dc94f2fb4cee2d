import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';

// The classes the console shows: apps only when the experimental preference turns them on.
export const shownClasses = (appsEnabled: boolean): readonly ApplicationClass[] =>
  appsEnabled ? ['fleet', 'app', 'block'] : ['fleet', 'block'];

// How a count over the shown classes is named ("Fleets, apps and blocks" or "Fleets and blocks").
export const classListLabel = (appsEnabled: boolean): string =>
  appsEnabled ? 'Fleets, apps and blocks' : 'Fleets and blocks';
