import type { NotificationBus } from '../../infra/db/notification-bus.js';
import { type IngestedLine, ingestedLineOut } from './log-line.js';
import { createLogRelay, type LogRelay, type RelayedLines } from './log-relay.js';
import { type LogAnnouncer, logChannel, parseLogNotification } from './log-store.js';

// Live log streams of this process, per device:
// - lines this process receives are handed to them straight from ingest, before they are
//   stored (publish);
// - lines other processes store are announced by NOTIFY on the process's shared LISTEN
//   connection (infra/db/notification-bus.ts, see log-store.ts for the payload), or published
//   on NATS after the insert (infra/bus/nats-bus.ts): the streams read them from the database.
//   When the bus is (re)established, every stream reads what it may have missed meanwhile.
// - with NATS, other processes' lines of the devices tailed here also come before they are
//   stored (log-relay.ts): the streams show them at once and read only what the relay lost.

// Lines of one device as they arrived; `text()` is their NDJSON, built once for all streams.
export type LiveBatch = { lines: readonly IngestedLine[]; text(): string };

export type LiveListener = {
  lines(batch: LiveBatch): void;
  // Lines another process received, not stored yet (NATS only).
  relayed(origin: number, prev: number, batch: LiveBatch): void;
  // Lines of the device may have been stored by another process: read them.
  stored(): void;
};

export type LogHub = {
  subscribe(deviceId: number, listener: LiveListener): () => void;
  publish(deviceId: number, lines: readonly IngestedLine[]): void;
  close(): void;
};

// Publishes stored lines' announcements on a bus without NOTIFY (NATS). A publication that
// fails (NATS unreachable, which the bus itself reports once) loses that announcement only: the
// other processes' tails read the lines when their bus is live again.
export const announcerOn =
  (bus: Pick<NotificationBus, 'publish'>): LogAnnouncer =>
  (channel, payloads) => {
    for (const payload of payloads) bus.publish(channel, payload).catch(() => undefined);
  };

export const toNdjson = (lines: readonly IngestedLine[]): string => {
  let text = '';
  for (const line of lines) text += `${JSON.stringify(ingestedLineOut(line))}\n`;
  return text;
};

const batchOf = (lines: readonly IngestedLine[]): LiveBatch => {
  let text: string | undefined;
  return { lines, text: () => (text ??= toNdjson(lines)) };
};

// How often a process says which devices it tails, with NATS (log-relay.ts).
const defaultRelay = { refreshMs: 10_000, now: () => Date.now() };

export const createLogHub = (
  bus: NotificationBus,
  origin: number,
  relayOptions = defaultRelay,
): LogHub => {
  const listeners = new Map<number, Set<LiveListener>>();
  const relayed = (deviceId: number, { origin: from, prev, lines }: RelayedLines): void => {
    const listening = listeners.get(deviceId);
    if (!listening) return;
    const batch = batchOf(lines);
    for (const listener of [...listening]) listener.relayed(from, prev, batch);
  };
  const relay: LogRelay | undefined =
    bus.engine === 'nats' ? createLogRelay(bus, origin, relayOptions, relayed) : undefined;

  const storedElsewhere = (listening: Iterable<LiveListener>): void => {
    for (const listener of [...listening]) listener.stored();
  };

  const channel = bus.listen(logChannel, (payload) => {
    const notification = parseLogNotification(payload);
    if (!notification || notification.origin === origin) return;
    for (const deviceId of notification.devices) {
      const listening = listeners.get(deviceId);
      if (listening) storedElsewhere(listening);
    }
  });
  const stopWatching = bus.onStateChange((state) => {
    if (state !== 'listening') return;
    for (const listening of [...listeners.values()]) storedElsewhere(listening);
  });

  return {
    subscribe(deviceId, listener) {
      let listening = listeners.get(deviceId);
      if (!listening) {
        listening = new Set();
        listeners.set(deviceId, listening);
        relay?.tail(deviceId);
      }
      listening.add(listener);
      const own = listening;
      return () => {
        own.delete(listener);
        if (own.size > 0 || listeners.get(deviceId) !== own) return;
        listeners.delete(deviceId);
        relay?.untail(deviceId);
      };
    },
    publish(deviceId, lines) {
      relay?.send(deviceId, lines);
      const listening = listeners.get(deviceId);
      if (!listening || lines.length === 0) return;
      const batch = batchOf(lines);
      for (const listener of [...listening]) listener.lines(batch);
    },
    close() {
      channel.close();
      relay?.close();
      stopWatching();
      listeners.clear();
    },
  };
};
