// The subscribers' side of a message bus, shared by both engines (infra/db/notification-bus.ts,
// infra/bus/nats-bus.ts): who listens to which channel, their `ready` promises, delivery with a
// failing subscriber kept from the others, resets, and the bus's state with its listeners. The
// engine decides when a channel is live (LISTENed on a live connection, or subscribed and
// flushed) and says so through announce().

export type RegistryState = 'stopped' | 'connecting' | 'listening' | 'down';

type Listener = { onPayload(payload: string): void; onReset: (() => void) | undefined };

export type Subscribed = {
  ready: Promise<void>;
  // Takes the subscriber out; true when its channel has no subscriber left.
  remove(): boolean;
};

export type SubscriberRegistry = {
  // A subscriber of `channel`; `ready` resolves at once when the channel is live already.
  add(
    channel: string,
    onPayload: (payload: string) => void,
    onReset: (() => void) | undefined,
    liveNow: boolean,
  ): Subscribed;
  deliver(channel: string, payload: string): void;
  // Every subscriber of these channels gets onReset (what it derived may have missed messages).
  reset: (channels: Iterable<string>) => void;
  // These channels just became live: their waiters wake, then their subscribers are reset.
  announce(channels: readonly string[]): void;
  // The channels with at least one subscriber.
  channels(): string[];
  state: () => RegistryState;
  setState: (next: RegistryState) => void;
  onStateChange: (listener: (state: RegistryState) => void) => () => void;
};

export const createSubscriberRegistry = (
  log: { warn(message: string): void },
  busName: string,
): SubscriberRegistry => {
  const listeners = new Map<string, Set<Listener>>();
  const readyWaiters = new Map<string, (() => void)[]>();
  const stateListeners = new Set<(state: RegistryState) => void>();
  let current: RegistryState = 'stopped';

  const guarded = (channel: string, work: () => void): void => {
    try {
      work();
    } catch (error) {
      const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
      log.warn(`${busName}: a subscriber of "${channel}" failed: ${detail}`);
    }
  };

  const reset: SubscriberRegistry['reset'] = (channels) => {
    for (const channel of channels) {
      for (const listener of [...(listeners.get(channel) ?? [])]) {
        if (listener.onReset) guarded(channel, listener.onReset);
      }
    }
  };

  return {
    add(channel, onPayload, onReset, liveNow) {
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
      }
      const listener: Listener = { onPayload, onReset };
      set.add(listener);
      const own = set;
      let wake: (() => void) | undefined;
      const ready = liveNow
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            wake = resolve;
            readyWaiters.set(channel, [...(readyWaiters.get(channel) ?? []), resolve]);
          });
      return {
        ready,
        remove() {
          const waiters = readyWaiters.get(channel)?.filter((waiter) => waiter !== wake);
          if (waiters?.length) readyWaiters.set(channel, waiters);
          else readyWaiters.delete(channel);
          own.delete(listener);
          if (own.size > 0 || listeners.get(channel) !== own) return false;
          listeners.delete(channel);
          return true;
        },
      };
    },
    deliver(channel, payload) {
      for (const listener of [...(listeners.get(channel) ?? [])]) {
        guarded(channel, () => listener.onPayload(payload));
      }
    },
    reset,
    announce(channels) {
      for (const channel of channels) {
        const waiters = readyWaiters.get(channel);
        readyWaiters.delete(channel);
        for (const wakeUp of waiters ?? []) wakeUp();
      }
      reset(channels);
    },
    channels: () => [...listeners.keys()],
    state: () => current,
    setState(next) {
      if (next === current) return;
      current = next;
      for (const listener of [...stateListeners]) listener(next);
    },
    onStateChange(listener) {
      stateListeners.add(listener);
      return () => {
        stateListeners.delete(listener);
      };
    },
  };
};
