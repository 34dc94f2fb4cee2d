import { useSyncExternalStore } from 'react';

// "Apps" is an alpha class shown only when the local preference (experimental tab) enables it.
const key = 'flotilla.experimental.displayApps';
const listeners = new Set<() => void>();

const read = (): boolean => {
  try {
    return window.localStorage.getItem(key) === 'true';
  } catch {
    return false;
  }
};

export const setAppsEnabled = (enabled: boolean): void => {
  try {
    window.localStorage.setItem(key, String(enabled));
  } catch {
    // Without storage the preference lasts for this page only.
  }
  for (const listener of listeners) listener();
};

export const useAppsEnabled = (): boolean =>
  useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, read);
