import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { createSubscriberRegistry, type RegistryState } from '../bus/subscriber-registry.js';
import type { Database } from './database.js';

// The process's one PostgreSQL LISTEN connection, shared by every channel that needs one (the
// actor cache, the target-state cache, cloudlink's node channel, ...). It belongs to the
// AppContext (ctx.notifications) and is open while anyone holds it (start/stop are counted: each
// app holds it from ready to close, infra/http/register-notification-bus.ts).
//
// - 'connecting': opening the connection and LISTENing;
// - 'listening': every notification committed from now on is delivered;
// - 'down': the connection failed or was lost; notifications are being missed, and a new
//   attempt follows after a delay (doubling from retryMinMs up to retryMaxMs). A connection that
//   dies silently (a network that drops packets without closing anything) is lost too: every
//   heartbeatIntervalMs the bus notifies itself on that connection, and a heartbeat not back
//   when the next is due drops the connection;
// - 'stopped': nobody holds it.
// A subscriber that keeps state derived from notifications trusts it only while its subscription
// is live, and forgets it on every reset: one when the connection is lost, one when its channel is
// LISTENed on a new connection (what it learnt in between may have missed a notification).
export type BusState = RegistryState;

export type Subscription = {
  // Resolves once the channel is LISTENed on a live connection (at once if it already is).
  ready: Promise<void>;
  // Whether the channel is LISTENed on the live connection now.
  live(): boolean;
  close(): void;
};

// The interface of the process's message bus, with two engines: this file's PostgreSQL
// LISTEN/NOTIFY (the default) and NATS (infra/bus/nats-bus.ts, with FLOTILLA_NATS_URL).
export type BusEngine = 'postgres' | 'nats';

export type NotificationBus = {
  engine: BusEngine;
  // Sends one payload to a channel's subscribers in every process (NOTIFY here: delivered once
  // committed, to the processes listening then). Rejects when it could not be handed over.
  publish(channel: string, payload: string): Promise<void>;
  // Calls onPayload with each notification of the channel (LISTENed at once when connected,
  // otherwise at the next connection), and onReset whenever live() changes.
  listen(channel: string, onPayload: (payload: string) => void, onReset?: () => void): Subscription;
  state(): BusState;
  onStateChange(listener: (state: BusState) => void): () => void;
  // Listening, with every subscribed channel LISTENed.
  isLive(): boolean;
  // Resolves once every notification committed before the call has been delivered (PostgreSQL
  // delivers them in commit order), for tests and callers that must read their own writes through
  // a cache. At once while stopped; rejects when not delivered within timeoutMs.
  sync(timeoutMs?: number): Promise<void>;
  // The server process id of the LISTEN connection, and the channels it LISTENs to, while there
  // is one (for operators and tests).
  backendPid(): number | undefined;
  channels(): string[];
  // How long the last heartbeat took to come back through PostgreSQL (the lag a notification
  // has on this connection), once one has.
  heartbeatLagMs(): number | undefined;
  // Messages this process published and received, and reconnections (NATS only).
  traffic?(): BusTraffic;
  // One more holder; the first opens the connection. Resolves after the first connection attempt,
  // whether it succeeded or not; never rejects.
  start(): Promise<void>;
  // One holder fewer; the last closes the connection (resolves once it is closed).
  stop(): Promise<void>;
};

// What a bus between processes has carried since it was made (NATS: for the metrics).
export type BusTraffic = { published: number; received: number; reconnects: number };

export type BusLog = { warn(message: string): void; info(message: string): void };

export type BusOptions = { retryMinMs: number; retryMaxMs: number; heartbeatIntervalMs: number };

const defaultOptions: BusOptions = {
  retryMinMs: 100,
  retryMaxMs: 5_000,
  heartbeatIntervalMs: 5_000,
};

// Channel names are quoted identifiers in LISTEN; only plain lower-case names are accepted.
const channelPattern = /^[a-z_][a-z0-9_]{0,62}$/;
// Where sync() sends its tokens.
const syncChannel = 'flotilla_bus_sync';
// Where the connection sends its heartbeats to itself (never delivered to subscribers).
const heartbeatChannel = 'flotilla_bus_heartbeat';

// `announced`: channels whose subscribers were told they are live on this session.
type Session = {
  connection: pg.PoolClient;
  listened: Set<string>;
  announced: Set<string>;
  // Runs `work` after every statement sent before it has finished: one statement at a time on
  // the connection (a subscriber may listen while the session is still being set up).
  serial<T>(work: () => Promise<T>): Promise<T>;
  drop(error?: Error): void;
};

// One statement at a time, in the order asked; a failed one does not stop the next.
const createSerial = (): Session['serial'] => {
  let tail: Promise<unknown> = Promise.resolve();
  return (work) => {
    const run = tail.then(work);
    tail = run.catch(() => undefined);
    return run;
  };
};

const causeOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

export const createNotificationBus = (
  db: Pick<Database, 'connect' | 'query'>,
  log: BusLog,
  options: Partial<BusOptions> = {},
): NotificationBus => {
  const { retryMinMs, retryMaxMs, heartbeatIntervalMs } = { ...defaultOptions, ...options };
  const registry = createSubscriberRegistry(log, 'notification bus');
  const { reset, setState } = registry;
  let holders = 0;
  let session: Session | undefined;
  let pid: number | undefined;
  let lagMs: number | undefined;
  let retryDelay = retryMinMs;
  let retryTimer: NodeJS.Timeout | undefined;
  let attempt: Promise<void> | undefined;
  let stopping: Promise<void> | undefined;
  // An outage is reported once when it begins, and once when it ends.
  let outage = false;

  const running = (): boolean => holders > 0;

  // Tells the subscribers of the channels newly LISTENed on the live session.
  const announce = (target: Session): void => {
    if (session !== target) return;
    const fresh = [...target.listened].filter((channel) => !target.announced.has(channel));
    for (const channel of fresh) target.announced.add(channel);
    registry.announce(fresh);
  };

  // LISTENs on every subscribed channel the session does not listen to yet.
  const listenAll = (target: Session): Promise<void> =>
    target.serial(async () => {
      for (;;) {
        const missing = registry.channels().filter((channel) => !target.listened.has(channel));
        if (missing.length === 0) return;
        for (const channel of missing) {
          await target.connection.query(`LISTEN "${channel}"`);
          target.listened.add(channel);
        }
        announce(target);
      }
    });

  const scheduleRetry = (): void => {
    if (!running() || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      attempt = connect();
    }, retryDelay);
    retryTimer.unref();
    retryDelay = Math.min(retryDelay * 2, retryMaxMs);
  };

  const lost = (error: unknown): void => {
    if (!outage) {
      log.warn(`notification bus: LISTEN connection unavailable (${causeOf(error)}); retrying`);
    }
    outage = true;
    setState('down');
    scheduleRetry();
  };

  const connect = async (): Promise<void> => {
    if (!running()) return;
    setState('connecting');
    let connection: pg.PoolClient;
    try {
      connection = await db.connect();
    } catch (error) {
      if (running()) lost(error);
      return;
    }
    let dropped = false;
    let heartbeat: NodeJS.Timeout | undefined;
    // The heartbeat sent and not heard back yet, and when it was sent.
    let awaited: string | undefined;
    let sentAt = 0;
    const candidate: Session = {
      connection,
      listened: new Set(),
      announced: new Set(),
      serial: createSerial(),
      drop(error) {
        if (dropped) return;
        dropped = true;
        clearInterval(heartbeat);
        // Destroyed, never returned to the pool: a session that listened stays out of reuse.
        connection.release(error ?? true);
        if (session !== candidate) return;
        session = undefined;
        pid = undefined;
        reset(candidate.announced);
        if (running()) lost(error ?? new Error('The LISTEN connection closed'));
      },
    };
    connection.on('error', (error) => candidate.drop(error));
    connection.on('end', () => candidate.drop());
    connection.on('notification', ({ channel, payload }) => {
      if (channel !== heartbeatChannel) registry.deliver(channel, payload ?? '');
      else if (payload === awaited) {
        awaited = undefined;
        lagMs = performance.now() - sentAt;
      }
    });
    const beat = (): void => {
      if (awaited !== undefined) {
        candidate.drop(new Error(`no heartbeat within ${heartbeatIntervalMs} ms`));
        return;
      }
      const token = randomUUID();
      awaited = token;
      sentAt = performance.now();
      candidate
        // The channel written out, so pg_stat_activity shows what the connection last did.
        .serial(() => connection.query(`SELECT pg_notify('${heartbeatChannel}', $1)`, [token]))
        .catch((error: unknown) =>
          candidate.drop(error instanceof Error ? error : new Error(String(error))),
        );
    };
    try {
      // The heartbeat covers the setup too (a pooled connection may be dead already), and each
      // beat is queued behind this LISTEN, so it is never sent unheard.
      const listening = candidate.serial(() => connection.query(`LISTEN "${heartbeatChannel}"`));
      heartbeat = setInterval(beat, heartbeatIntervalMs);
      heartbeat.unref();
      await listening;
      const { rows } = await candidate.serial(() =>
        connection.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'),
      );
      await listenAll(candidate);
      if (dropped) {
        if (running()) lost(new Error('The LISTEN connection closed while it was being set up'));
        return;
      }
      if (!running()) {
        candidate.drop();
        return;
      }
      session = candidate;
      pid = rows[0]?.pid;
    } catch (error) {
      candidate.drop();
      if (running()) lost(error);
      return;
    }
    retryDelay = retryMinMs;
    if (outage) log.info('notification bus: listening again');
    outage = false;
    announce(candidate);
    setState('listening');
  };

  const listen: NotificationBus['listen'] = (channel, onPayload, onReset) => {
    if (!channelPattern.test(channel)) throw new Error(`Unusable channel name: ${channel}`);
    const live = (): boolean => session?.announced.has(channel) === true;
    const subscribed = registry.add(channel, onPayload, onReset, live());
    const open = session;
    if (open && !open.listened.has(channel)) {
      // A failed LISTEN means a broken connection: drop it and start over.
      listenAll(open).catch((error: unknown) =>
        open.drop(error instanceof Error ? error : new Error(String(error))),
      );
    }
    return {
      ready: subscribed.ready,
      live,
      // The channel stays LISTENed until the next reconnection; unwanted payloads are ignored.
      close() {
        subscribed.remove();
      },
    };
  };

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
        () => reject(new Error('The notification bus did not deliver its sync token in time')),
        timeoutMs,
      );
    });
    try {
      await Promise.race([subscription.ready, late]);
      await db.query('SELECT pg_notify($1, $2)', [syncChannel, token]);
      await Promise.race([delivered, late]);
    } finally {
      clearTimeout(timer);
      subscription.close();
    }
  };

  return {
    engine: 'postgres',
    async publish(channel, payload) {
      await db.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    listen,
    state: registry.state,
    onStateChange: registry.onStateChange,
    isLive: () =>
      registry.state() === 'listening' &&
      registry.channels().every((channel) => session?.announced.has(channel) === true),
    sync,
    backendPid: () => pid,
    heartbeatLagMs: () => lagMs,
    channels: () => [...(session?.announced ?? [])],
    start() {
      holders += 1;
      if (holders > 1) return attempt ?? Promise.resolve();
      // After a stop still under way, so the two never share a connection.
      attempt = (stopping ?? Promise.resolve()).then(connect);
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
        // Taken out first, so its drop is not mistaken for a loss (start may be called meanwhile).
        const old = session;
        session = undefined;
        pid = undefined;
        old?.drop();
        if (old) reset(old.announced);
        if (!running()) {
          outage = false;
          setState('stopped');
        }
      })();
      return stopping;
    },
  };
};
