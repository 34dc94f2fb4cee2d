// Whether the console's live event stream is connected: while it is, the screens it keeps fresh
// poll rarely (events refresh them); when it drops, they poll at their own rate again.
let connected = false;
const listeners = new Set<() => void>();

export const liveUpdatesConnected = (): boolean => connected;

export const setLiveUpdatesConnected = (next: boolean): void => {
  if (connected === next) return;
  connected = next;
  for (const listener of listeners) listener();
};

export const subscribeLiveUpdates = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
