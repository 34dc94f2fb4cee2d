import { describe, expect, it } from 'vitest';
import type { NotificationBus } from '../../infra/db/notification-bus.js';
import type { IngestedLine } from './log-line.js';
import { createLogRelay, linesChannelOf, parseRelayed, tailsChannel } from './log-relay.js';
import { logNotifications } from './log-store.js';

// Where the relay sends a tailed device's lines: to the processes tailing it, each on its own
// channel, so the sender never hears its own lines back and other processes never hear them.

type Sent = { channel: string; payload: string };

const recordingBus = () => {
  const sent: Sent[] = [];
  const listeners = new Map<string, (payload: string) => void>();
  const bus: NotificationBus = {
    engine: 'nats',
    publish: async (channel, payload) => {
      sent.push({ channel, payload });
    },
    listen: (channel, onPayload) => {
      listeners.set(channel, onPayload);
      return { ready: Promise.resolve(), live: () => true, close: () => undefined };
    },
    state: () => 'listening',
    onStateChange: () => () => undefined,
    isLive: () => true,
    sync: async () => undefined,
    backendPid: () => undefined,
    channels: () => [...listeners.keys()],
    heartbeatLagMs: () => undefined,
    start: async () => undefined,
    stop: async () => undefined,
  };
  const hear = (channel: string, payload: string): void => listeners.get(channel)?.(payload);
  return { bus, sent, hear };
};

const line = (seq: number): IngestedLine => ({
  deviceId: 7,
  createdAt: 1,
  seq,
  line: { message: `m${seq}`, timestamp: 1, isSystem: false, isStdErr: false, serviceId: null },
});

describe('the log relay', () => {
  it('carries each line as it was received', () => {
    const { bus, sent, hear } = recordingBus();
    const relay = createLogRelay(bus, 1, { refreshMs: 10_000, now: () => 0 }, () => undefined);
    try {
      for (const payload of logNotifications(2, [7])) hear(tailsChannel, payload);
      const odd: IngestedLine = {
        deviceId: 7,
        createdAt: 1_700_000_000_123,
        seq: 5,
        line: {
          message: 'say "hi"\\ \u2028 ünï\n',
          timestamp: -3,
          isSystem: true,
          isStdErr: true,
          serviceId: 42,
        },
      };
      relay.send(7, [line(4), odd]);
      expect(sent.map(({ payload }) => parseRelayed(payload))).toEqual([
        { origin: 1, deviceId: 7, prev: 0, lines: [line(4), odd] },
      ]);
    } finally {
      relay.close();
    }
  });

  it("sends a device's lines to each process tailing it, and to no other", () => {
    const { bus, sent, hear } = recordingBus();
    const relay = createLogRelay(bus, 1, { refreshMs: 10_000, now: () => 0 }, () => undefined);
    try {
      expect(bus.channels()).toEqual([tailsChannel, linesChannelOf(1)]);
      relay.send(7, [line(1)]);
      expect(sent).toEqual([]);

      for (const payload of logNotifications(2, [7])) hear(tailsChannel, payload);
      for (const payload of logNotifications(3, [7, 8])) hear(tailsChannel, payload);
      relay.send(7, [line(2), line(3)]);
      relay.send(9, [line(4)]);

      expect(sent.map(({ channel }) => channel)).toEqual([linesChannelOf(2), linesChannelOf(3)]);
      const relayed = sent.map(({ payload }) => parseRelayed(payload));
      expect(relayed[0]).toEqual(relayed[1]);
      expect(relayed[0]?.prev).toBe(1);
      expect(relayed[0]?.lines.map(({ seq }) => seq)).toEqual([2, 3]);
    } finally {
      relay.close();
    }
  });
});
