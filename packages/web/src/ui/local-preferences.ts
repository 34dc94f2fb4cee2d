import { useSyncExternalStore } from 'react';
import { useDeploymentTag } from './deployment-tag.js';

// The experimental tab's local options (header colour, navigation
// stripes; "display apps" is useAppsEnabled.ts), kept in this browser's local storage only. Each
// is stored on its own key as a primitive, so a snapshot compares by value.
export const headerColors = [
  'default',
  'red',
  'orange',
  'green',
  'teal',
  'purple',
  'grey',
] as const;
export type HeaderColor = (typeof headerColors)[number];

// Colours the header text (white) reads well on.
export const headerColorValues: Record<Exclude<HeaderColor, 'default'>, string> = {
  red: '#c62828',
  orange: '#e65100',
  green: '#2e7d32',
  teal: '#00695c',
  purple: '#6a1b9a',
  grey: '#424242',
};

const headerColorKey = 'flotilla.experimental.headerColor';
const stripesKey = 'flotilla.experimental.showNavigationStripes';

const isHeaderColor = (value: string | null): value is HeaderColor =>
  headerColors.some((color) => color === value);

const listeners = new Set<() => void>();
const notify = (): void => {
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void): (() => void) => {
  listeners.add(listener);
  // Another tab of this browser changed a preference.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
};

// Choices storage refused: they last until the page is reloaded.
const unkept = new Map<string, string>();

const readItem = (key: string): string | null => {
  const fallback = unkept.get(key);
  if (fallback !== undefined) return fallback;
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
};

// Whether the value could be kept (storage may be unavailable, e.g. in private mode).
const writeItem = (key: string, value: string): boolean => {
  let kept = true;
  try {
    window.localStorage.setItem(key, value);
    unkept.delete(key);
  } catch {
    kept = false;
    unkept.set(key, value);
  }
  notify();
  return kept;
};

export const readHeaderColor = (): HeaderColor => {
  const stored = readItem(headerColorKey);
  return isHeaderColor(stored) ? stored : 'default';
};

// The stripes the user chose; without a choice, byDefault (on for a tagged installation such
// as staging, so that it is not taken for production).
export const readNavigationStripes = (byDefault = false): boolean => {
  const stored = readItem(stripesKey);
  return stored === null ? byDefault : stored === 'true';
};

export const setHeaderColor = (color: HeaderColor): boolean => writeItem(headerColorKey, color);

export const setNavigationStripes = (shown: boolean): boolean =>
  writeItem(stripesKey, String(shown));

export const useHeaderColor = (): HeaderColor => useSyncExternalStore(subscribe, readHeaderColor);

export const useNavigationStripes = (): boolean => {
  const [deploymentTag] = useDeploymentTag();
  return useSyncExternalStore(subscribe, () => readNavigationStripes(deploymentTag !== null));
};

// The header's background: the chosen colour, else red for platform administrators,
// else the theme's (undefined).
export const headerBackground = (color: HeaderColor, isAdmin: boolean): string | undefined => {
  if (color !== 'default') return headerColorValues[color];
  return isAdmin ? headerColorValues.red : undefined;
};

// Diagonal stripes over the navigation, to tell this console apart at a glance: dark ones on
// the sidebar, light ones on the header's colour.
export const navigationStripes =
  'repeating-linear-gradient(135deg, rgba(0, 0, 0, 0.06) 0 10px, transparent 10px 20px)';
export const headerStripes =
  'repeating-linear-gradient(135deg, rgba(255, 255, 255, 0.14) 0 10px, transparent 10px 20px)';
