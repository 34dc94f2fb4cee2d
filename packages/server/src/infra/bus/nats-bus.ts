import { randomUUID } from 'node:crypto';
import { connect, Events, type NatsConnection, type Subscription as NatsSubscription } from 'nats';
import type { BusLog, BusTraffic, NotificationBus } from '../db/notification-bus.js';
import { createSubscriberRegistry } from './subscriber-registry.js';

// The message bus on NATS (core NATS: at-most-once, no persistence), the engine for several
// server processes (FLOTILLA_NATS_URL). Same contract as the LISTEN/NOTIFY engine
// (infra/db/notification-bus.ts): a channel is the subject `flotilla.<channel>`; a subscriber is
// live once the server has its subscription (a flush after subscribing), gets onReset when the
// connection is lost and again when its subscription is back on a new one, and trusts what it
// derived from messages only while live. While NATS is unreachable the client reconnects by
// itself (publications meanwhile wait in its buffer); a connection it gives up on is replaced
// after a delay doubling from retryMinMs to retryMaxMs. A connection that dies silently is
// noticed by the client's pings (every heartbeatIntervalMs, two unanswered drop it).
export type NatsBusOptions = {
  retryMinMs: number;
  retryMaxMs: number;
  heartbeatIntervalMs: number;
  connectTimeoutMs: number;
};

const defaultOptions: NatsBusOptions = {
  retryMinMs: 100,
  retryMaxMs: 5_000,
  heartbeatIntervalMs: 5_000,
  connectTimeoutMs: 2_000,
};

const channelPattern = /^[a-z_][a-z0-9_]{0,62}$/;
const syncChannel = 'flotilla_bus_sync';
export const natsSubjectOf = (channel: string): string => `flotilla.${channel}`;

const causeOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

export const createNatsBus = (
  servers: string,
  log: BusLog,
  options: Partial<NatsBusOptions> = {},
): NotificationBus => {
  const { retryMinMs, retryMaxMs, heartbeatIntervalMs, connectTimeoutMs } = {
    ...defaultOptions,
    ...options,
  };
  const registry = createSubscriberRegistry(log, 'message bus');
  const { reset, setState } = registry;
  // Subscriptions on the current connection, and the channels told they are live on it.
  const subscriptions = new Map<string, NatsSubscription>();
  const announced = new Set<string>();
  const decoder = new TextDecoder();
  let holders = 0;
  let connection: NatsConnection | undefined;
  let lagMs: number | undefined;
  let retryDelay = retryMinMs;
  let retryTimer: NodeJS.Timeout | undefined;
  let rttTimer: NodeJS.Timeout | undefined;
  let attempt: Promise<void> | undefined;
  let stopping: Promise<void> | undefined;
  let outage = false;
  const traffic: BusTraffic = { published: 0, received: 0, reconnects: 0 };

  const running = (): boolean => holders > 0;
  // Every subscriber loses its live state (the connection is gone or being replaced).
  const unannounce = (): void => {
    const was = [...announced];
    announced.clear();
    reset(was);
  };
  // Channels subscribed on `target` and flushed (so the server has them) become live.
  const announce = (target: NatsConnection): void => {
    if (connection !== target || registry.state() === 'down') return;
    const fresh = [...subscriptions.keys()].filter((channel) => !announced.has(channel));
    for (const channel of fresh) announced.add(channel);
    registry.announce(fresh);
  };
  const subscribe = (target: NatsConnection, channel: string): void => {
    if (subscriptions.has(channel)) return;
    const subscription = target.subscribe(natsSubjectOf(channel), {
      callback: (error, message) => {
        if (error) return;
        traffic.received += 1;
        registry.deliver(channel, decoder.decode(message.data));
      },
    });
    subscriptions.set(channel, subscription);
  };
  const flushThenAnnounce = (target: NatsConnection): Promise<void> =>
    target.flush().then(
      () => announce(target),
      () => undefined,
    );

  const scheduleRetry = (): void => {
    if (!running() || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      attempt = open();
    }, retryDelay);
    retryTimer.unref();
    retryDelay = Math.min(retryDelay * 2, retryMaxMs);
  };
  const lost = (error: unknown): void => {
    if (!outage) log.warn(`message bus: NATS unavailable (${causeOf(error)}); retrying`);
    outage = true;
    setState('down');
  };

  // Follows the client's own reconnections: down on a disconnect, live again once the
  // re-sent subscriptions are flushed.
  const watch = async (target: NatsConnection): Promise<void> => {
    for await (const status of target.status()) {
      if (connection !== target) return;
      if (status.type === Events.Disconnect) {
        lost(new Error('the connection was lost'));
        unannounce();
      } else if (status.type === Events.Reconnect) {
        traffic.reconnects += 1;
        await target.flush().catch(() => undefined);
        if (connection !== target) return;
        if (outage) log.info('message bus: NATS connected again');
        outage = false;
        setState('listening');
        announce(target);
      }
    }
  };

  const open = async (): Promise<void> => {
    if (!running()) return;
    setState('connecting');
    let target: NatsConnection;
    try {
      target = await connect({
        servers: servers.split(',').map((server) => server.trim()),
        name: 'flotilla',
        timeout: connectTimeoutMs,
        reconnect: true,
        maxReconnectAttempts: -1,
        reconnectTimeWait: retryMinMs,
        pingInterval: heartbeatIntervalMs,
        maxPingOut: 2,
      });
    } catch (error) {
      if (running()) {
        lost(error);
        scheduleRetry();
      }
      return;
    }
    if (!running()) {
      await target.close();
      return;
    }
    connection = target;
    subscriptions.clear();
    void watch(target);
    void target.closed().then((error) => {
      if (connection !== target) return;
      connection = undefined;
      subscriptions.clear();
      clearInterval(rttTimer);
      unannounce();
      if (running()) {
        lost(error ?? new Error('the connection closed'));
        scheduleRetry();
      }
    });
    for (const channel of registry.channels()) subscribe(target, channel);
    retryDelay = retryMinMs;
    // A new connection after one lost (or never made) counts as a reconnection too.
    if (outage) traffic.reconnects += 1;
    if (outage) log.info('message bus: NATS connected again');
    outage = false;
    setState('listening');
    rttTimer = setInterval(() => {
      target.rtt().then(
        (ms) => (lagMs = ms),
        () => undefined,
      );
    }, heartbeatIntervalMs);
    rttTimer.unref();
    await flushThenAnnounce(target);
  };

  const listen: NotificationBus['listen'] = (channel, onPayload, onReset) => {
    if (!channelPattern.test(channel)) throw new Error(`Unusable channel name: ${channel}`);
    const live = (): boolean => announced.has(channel);
    const subscribed = registry.add(channel, onPayload, onReset, live());
    const target = connection;
    if (target && !subscriptions.has(channel)) {
      subscribe(target, channel);
      void flushThenAnnounce(target);
    }
    return {
      ready: subscribed.ready,
      live,
      close() {
        if (!subscribed.remove()) return;
        announced.delete(channel);
        subscriptions.get(channel)?.unsubscribe();
        subscriptions.delete(channel);
      },
    };
  };

  const publish: NotificationBus['publish'] = (channel, payload) => {
    if (!channelPattern.test(channel)) throw new Error(`Unusable channel name: ${channel}`);
    if (!connection) {
      return Promise.reject(new Error('The message bus (NATS) is not connected'));
    }
    try {
      // While reconnecting, the client keeps it in its buffer and sends it once connected.
      connection.publish(natsSubjectOf(channel), payload);
      traffic.published += 1;
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };

  // This process's publications reach each subscriber in the order sent: a token published now
  // comes back after everything this process published before.
  const sync = async (timeoutMs = 10_000): Promise<void> => {
    if (!running()) return;
    const token = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    let heard: () => void = () => undefined;
    const delivered = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const subscription = listen(syncChannel, (payload) => {
      if (payload === token) heard();
    });
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error('The message bus did not deliver its sync token in time')),
        timeoutMs,
      );
    });
    try {
      await Promise.race([subscription.ready, late]);
      await publish(syncChannel, token);
      await Promise.race([delivered, late]);
    } finally {
      clearTimeout(timer);
      subscription.close();
    }
  };

  return {
    engine: 'nats',
    publish,
    listen,
    state: registry.state,
    onStateChange: registry.onStateChange,
    isLive: () =>
      registry.state() === 'listening' &&
      registry.channels().every((channel) => announced.has(channel)),
    sync,
    backendPid: () => undefined,
    channels: () => [...announced],
    heartbeatLagMs: () => lagMs,
    traffic: () => ({ ...traffic }),
    start() {
      holders += 1;
      if (holders > 1) return attempt ?? Promise.resolve();
      attempt = (stopping ?? Promise.resolve()).then(open);
      return attempt;
    },
    stop() {
      if (holders === 0) return stopping ?? Promise.resolve();
      holders -= 1;
      if (holders > 0) return Promise.resolve();
      clearTimeout(retryTimer);
      retryTimer = undefined;
      const pending = attempt;
      stopping = (async () => {
        await pending;
        const old = connection;
        connection = undefined;
        subscriptions.clear();
        clearInterval(rttTimer);
        unannounce();
        await old?.close().catch(() => undefined);
        if (!running()) {
          outage = false;
          setState('stopped');
        }
      })();
      return stopping;
    },
  };
};
