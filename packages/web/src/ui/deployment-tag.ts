import { useSyncExternalStore } from 'react';

// The optional deployment tag shown in page titles ("Fleets | Flotilla [staging]"), from /config.
let tag: string | null = null;
const listeners = new Set<() => void>();

// Set by the boot (api/session/api-boot.ts), which may run before React renders.
export const setDeploymentTag = (next: string | null): void => {
  if (next === tag) return;
  tag = next;
  for (const listener of listeners) listener();
};

export const useDeploymentTag = (): [string | null, (next: string | null) => void] => [
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => tag,
  ),
  setDeploymentTag,
];
