import type { NotificationBus } from '../../infra/db/notification-bus.js';
import type { IngestedLine } from './log-line.js';
import { logNotifications, parseLogNotification } from './log-store.js';

// With NATS, lines also reach the live streams of other processes before they are stored, so a
// tail on another process is as current as one on the process that received the lines. Only
// lines of devices tailed elsewhere travel:
// - a process with streams says which devices it tails on `device_log_tails` ("<origin>:<device>,
//   …", as the stored lines' announcements): at a device's first stream, when its bus is live
//   again, and every refreshMs; a device not heard of for three refreshes is no longer relayed;
// - the process that receives a tailed device's lines publishes them at once on the channel of
//   each process tailing it (`device_log_lines_<origin>`: no process hears lines it does not
//   tail, nor its own back from NATS), with the order (`seq`) of the device's previous line there
//   (`prev`): a stream that did not show that line yet knows it missed some and reads them from
//   the database (log-subscription.ts).
// At most once, as everything on NATS: the stored lines' announcements stay (log-store.ts), so a
// stream still reads from the database whatever the relay lost.

export const tailsChannel = 'device_log_tails';
// The relayed lines for the process `origin`.
export const linesChannelOf = (origin: number): string => `device_log_lines_${origin}`;

// Lines of one device from another process; `prev` is 0 for its first line there.
export type RelayedLines = { origin: number; prev: number; lines: IngestedLine[] };

export type LogRelay = {
  send(deviceId: number, lines: readonly IngestedLine[]): void;
  // This process has streams of the device from now on / no longer.
  tail(deviceId: number): void;
  untail(deviceId: number): void;
  close(): void;
};

export type RelayOptions = { refreshMs: number; now: () => number };

// A message stays well below NATS's default 1 MB payload limit.
const maxPayloadChars = 256 * 1024;

type WireLine = [number, number, number, string, boolean, boolean, number | null];

// A WireLine's JSON, built by hand: only the message needs escaping (the numbers are integers),
// and no array per line is made for JSON.stringify to walk, on the ingest path.
const wireText = ({ seq, createdAt, line }: IngestedLine): string =>
  `[${seq},${createdAt},${line.timestamp},${JSON.stringify(line.message)},${String(line.isSystem)},${String(line.isStdErr)},${line.serviceId ?? 'null'}]`;

const isWireLine = (value: unknown): value is WireLine =>
  Array.isArray(value) &&
  value.length === 7 &&
  Number.isSafeInteger(value[0]) &&
  typeof value[1] === 'number' &&
  typeof value[2] === 'number' &&
  typeof value[3] === 'string' &&
  typeof value[4] === 'boolean' &&
  typeof value[5] === 'boolean' &&
  (value[6] === null || Number.isSafeInteger(value[6]));

// A message from another process, or undefined when it is not one.
export const parseRelayed = (
  payload: string,
): (RelayedLines & { deviceId: number }) | undefined => {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (!('o' in value && 'd' in value && 'p' in value && 'l' in value)) return undefined;
  const { o, d, p, l } = value;
  if (!Number.isSafeInteger(o) || !Number.isSafeInteger(d) || !Number.isSafeInteger(p)) {
    return undefined;
  }
  if (!Array.isArray(l) || !l.every(isWireLine)) return undefined;
  const deviceId = Number(d);
  const lines = l.map(([seq, createdAt, timestamp, message, isSystem, isStdErr, serviceId]) => ({
    deviceId,
    createdAt,
    seq,
    line: { message, timestamp, isSystem, isStdErr, serviceId },
  }));
  return { origin: Number(o), deviceId, prev: Number(p), lines };
};

export const createLogRelay = (
  bus: NotificationBus,
  origin: number,
  options: RelayOptions,
  onRelayed: (deviceId: number, relayed: RelayedLines) => void,
): LogRelay => {
  // Devices with streams here (by count of subscribers in the hub, kept there).
  const tailed = new Set<number>();
  // Devices tailed by other processes: by which, until when.
  const tailedElsewhere = new Map<number, Map<number, number>>();
  // The seq of each device's newest line received here.
  const newest = new Map<number, number>();
  const expiryMs = 3 * options.refreshMs;

  const sayTailed = (devices: readonly number[]): void => {
    for (const payload of logNotifications(origin, devices)) {
      bus.publish(tailsChannel, payload).catch(() => undefined);
    }
  };
  const tails = bus.listen(tailsChannel, (payload) => {
    const heard = parseLogNotification(payload);
    if (!heard || heard.origin === origin) return;
    const until = options.now() + expiryMs;
    for (const deviceId of heard.devices) {
      let tailers = tailedElsewhere.get(deviceId);
      if (!tailers) {
        tailers = new Map();
        tailedElsewhere.set(deviceId, tailers);
      }
      tailers.set(heard.origin, until);
    }
  });
  const lines = bus.listen(linesChannelOf(origin), (payload) => {
    const relayed = parseRelayed(payload);
    if (!relayed || relayed.origin === origin) return;
    onRelayed(relayed.deviceId, relayed);
  });
  const stopWatching = bus.onStateChange((state) => {
    if (state === 'listening') sayTailed([...tailed]);
  });
  const refresh = setInterval(() => {
    const now = options.now();
    for (const [deviceId, tailers] of tailedElsewhere) {
      for (const [tailer, until] of tailers) if (until <= now) tailers.delete(tailer);
      if (tailers.size === 0) tailedElsewhere.delete(deviceId);
    }
    if (tailed.size > 0) sayTailed([...tailed]);
  }, options.refreshMs);
  refresh.unref();

  // The channels of the processes tailing the device now.
  const tailersOf = (deviceId: number): string[] => {
    const tailers = tailedElsewhere.get(deviceId);
    if (!tailers) return [];
    const now = options.now();
    const channels: string[] = [];
    for (const [tailer, until] of tailers) if (until > now) channels.push(linesChannelOf(tailer));
    return channels;
  };

  return {
    send(deviceId, sent) {
      const last = sent.at(-1);
      if (!last) return;
      const before = newest.get(deviceId) ?? 0;
      newest.set(deviceId, last.seq);
      const channels = tailersOf(deviceId);
      if (channels.length === 0) return;
      const publish = (prev: number, wire: string[]): void => {
        const payload = `{"o":${origin},"d":${deviceId},"p":${prev},"l":[${wire.join(',')}]}`;
        for (const channel of channels) bus.publish(channel, payload).catch(() => undefined);
      };
      let prev = before;
      let wire: string[] = [];
      let size = 0;
      for (const [index, line] of sent.entries()) {
        const text = wireText(line);
        if (wire.length > 0 && size + text.length > maxPayloadChars) {
          publish(prev, wire);
          prev = sent[index - 1]?.seq ?? prev;
          wire = [];
          size = 0;
        }
        wire.push(text);
        size += text.length + 1;
      }
      publish(prev, wire);
    },
    tail(deviceId) {
      if (tailed.has(deviceId)) return;
      tailed.add(deviceId);
      sayTailed([deviceId]);
    },
    untail(deviceId) {
      tailed.delete(deviceId);
    },
    close() {
      clearInterval(refresh);
      stopWatching();
      tails.close();
      lines.close();
    },
  };
};
