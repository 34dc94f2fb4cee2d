import { useSyncExternalStore } from 'react';

// Subscribes a component to one of the SDK's small stores (connectivity, throttle).
export const useStore = <T>(subscribe: (listener: () => void) => () => void, get: () => T): T =>
  useSyncExternalStore(subscribe, get);
