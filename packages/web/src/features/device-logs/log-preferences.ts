import { useSyncExternalStore } from 'react';

// The logs panel's toggles, kept in this browser.
export type LogPreferences = { utc: boolean; hideTimestamps: boolean };

const key = 'flotilla.logs.preferences';
const defaults: LogPreferences = { utc: false, hideTimestamps: false };
const listeners = new Set<() => void>();
// useSyncExternalStore needs the same object while nothing changed.
let cached: { raw: string | null; value: LogPreferences } | undefined;

const readRaw = (): string | null => {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
};

const parse = (raw: string | null): LogPreferences => {
  if (raw === null) return defaults;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return defaults;
    return {
      utc: 'utc' in value && value.utc === true,
      hideTimestamps: 'hideTimestamps' in value && value.hideTimestamps === true,
    };
  } catch {
    return defaults;
  }
};

export const readLogPreferences = (): LogPreferences => {
  const raw = readRaw();
  if (cached?.raw !== raw) cached = { raw, value: parse(raw) };
  return cached.value;
};

export const setLogPreferences = (change: Partial<LogPreferences>): void => {
  const next = { ...readLogPreferences(), ...change };
  try {
    window.localStorage.setItem(key, JSON.stringify(next));
  } catch {
    // Without storage the toggles last for this page only.
    cached = { raw: readRaw(), value: next };
  }
  for (const listener of listeners) listener();
};

export const useLogPreferences = (): LogPreferences =>
  useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, readLogPreferences);
