import { Counter, Gauge, type Registry } from 'prom-client';
import type { BusState, NotificationBus } from '../../infra/db/notification-bus.js';

const states: readonly BusState[] = ['connecting', 'listening', 'down', 'stopped'];

// The NATS message bus (FLOTILLA_NATS_URL), read at scrape time: its connection state (one
// series per state, 1 for the current one), the messages this process published and received,
// and its reconnections. Labels are fixed sets: never a subject or a node.
export const registerNatsMetrics = (
  registry: Registry,
  bus: Pick<NotificationBus, 'state' | 'traffic'>,
): void => {
  new Gauge({
    name: 'flotilla_nats_connection_state',
    help: 'State of the NATS connection: 1 for the current state (listening is connected)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const current = bus.state();
      for (const state of states) this.set({ state }, state === current ? 1 : 0);
    },
  });
  // Counters read from the bus's own totals: each scrape adds what grew since the last.
  const seen = { published: 0, received: 0, reconnects: 0 };
  new Counter({
    name: 'flotilla_nats_messages_total',
    help: 'Messages this process published on NATS and received from it',
    labelNames: ['direction'] as const,
    registers: [registry],
    collect() {
      const now = bus.traffic?.();
      if (!now) return;
      this.inc({ direction: 'published' }, now.published - seen.published);
      this.inc({ direction: 'received' }, now.received - seen.received);
      seen.published = now.published;
      seen.received = now.received;
    },
  });
  new Counter({
    name: 'flotilla_nats_reconnects_total',
    help: 'Times this process connected to NATS again after losing it',
    registers: [registry],
    collect() {
      const now = bus.traffic?.();
      if (!now) return;
      this.inc(now.reconnects - seen.reconnects);
      seen.reconnects = now.reconnects;
    },
  });
};
