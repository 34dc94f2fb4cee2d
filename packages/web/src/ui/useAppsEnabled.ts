import { useSyncExternalStore } from 'react';

// "Apps" is an alpha class shown only when the local preference (experimental tab) enables it.
const key = 'flotilla.experimental.displayApps';
const listeners = new Set<() => void>();
// The choice when storage refused it: it lasts until the page is reloaded.
let unkept: boolean | null = null;

const read = (): boolean => {
  if (unkept !== null) return unkept;
  try {
    return window.localStorage.getItem(key) === 'true';
  } catch {
    return false;
  }
};

// Whether the choice could be kept (without storage it lasts for this page only).
export const setAppsEnabled = (enabled: boolean): boolean => {
  let kept = true;
  try {
    window.localStorage.setItem(key, String(enabled));
    unkept = null;
  } catch {
    kept = false;
    unkept = enabled;
  }
  for (const listener of listeners) listener();
  return kept;
};

export const useAppsEnabled = (): boolean =>
  useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, read);
