import { featureFlags } from '@flotilla/shared/feature-flags/flags';
import { OpenFeature, ProviderEvents, ProviderStatus } from '@openfeature/web-sdk';
import { useSyncExternalStore } from 'react';

// "Apps" is an alpha class, shown when the local preference (experimental tab) enables it for
// this browser or the "apps" feature flag (set by platform administrators, read through
// OpenFeature) is on for the user.
const key = 'flotilla.experimental.displayApps';
const listeners = new Set<() => void>();
// The choice when storage refused it: it lasts until the page is reloaded.
let unkept: boolean | null = null;

const readPreference = (): boolean => {
  if (unkept !== null) return unkept;
  try {
    return window.localStorage.getItem(key) === 'true';
  } catch {
    return false;
  }
};

const readFlag = (): boolean => {
  const client = OpenFeature.getClient();
  // Before the provider answered, the flag's default (no error logged for an early read).
  if (client.providerStatus !== ProviderStatus.READY) return featureFlags.apps.defaultValue;
  return client.getBooleanValue('apps', featureFlags.apps.defaultValue);
};

const read = (): boolean => readPreference() || readFlag();

// Only the local preference: the experimental tab's switch shows what this browser chose.
export const useAppsPreference = (): boolean =>
  useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, readPreference);

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

const flagEvents = [
  ProviderEvents.Ready,
  ProviderEvents.ConfigurationChanged,
  ProviderEvents.ContextChanged,
  ProviderEvents.Error,
] as const;

export const useAppsEnabled = (): boolean =>
  useSyncExternalStore((listener) => {
    listeners.add(listener);
    for (const event of flagEvents) OpenFeature.addHandler(event, listener);
    return () => {
      listeners.delete(listener);
      for (const event of flagEvents) OpenFeature.removeHandler(event, listener);
    };
  }, read);
