import type pg from 'pg';
import type { Database } from './database.js';

// The process's PostgreSQL LISTEN connection, shared by every channel that needs one.
//
// - 'connecting': opening the connection and LISTENing;
// - 'listening': every notification committed from now on is delivered;
// - 'down': the connection failed or was lost; notifications are being missed, and a new
//   attempt follows after a delay (doubling from retryMinMs up to retryMaxMs);
// - 'stopped': before start and after stop.
// A subscriber that keeps state derived from notifications must treat anything but 'listening'
// as "I may have missed something" (the auth cache empties itself and stands aside).
export type BusState = 'stopped' | 'connecting' | 'listening' | 'down';

export type Subscription = {
  // Resolves once the channel is LISTENed on a live connection (at once if it already is).
  ready: Promise<void>;
  close(): void;
};

export type NotificationBus = {
  // Calls onPayload with each notification of the channel (LISTENed at once when connected,
  // otherwise at the next connection).
  listen(channel: string, onPayload: (payload: string) => void): Subscription;
  state(): BusState;
  onStateChange(listener: (state: BusState) => void): () => void;
  // The server process id of the LISTEN connection while there is one (for operators and tests).
  backendPid(): number | undefined;
  // Resolves after the first connection attempt, whether it succeeded or not; never rejects.
  start(): Promise<void>;
  stop(): Promise<void>;
};

export type BusLog = {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
};

export type BusOptions = { retryMinMs: number; retryMaxMs: number };

const defaultOptions: BusOptions = { retryMinMs: 100, retryMaxMs: 5_000 };

// Channel names are quoted identifiers in LISTEN; only plain lower-case names are accepted.
const channelPattern = /^[a-z_][a-z0-9_]{0,62}$/;

type Session = { connection: pg.PoolClient; listened: Set<string>; drop(error?: Error): void };

export const createNotificationBus = (
  db: Pick<Database, 'connect'>,
  log: BusLog,
  options: Partial<BusOptions> = {},
): NotificationBus => {
  const { retryMinMs, retryMaxMs } = { ...defaultOptions, ...options };
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const stateListeners = new Set<(state: BusState) => void>();
  const readyWaiters = new Map<string, (() => void)[]>();
  let current: BusState = 'stopped';
  let running = false;
  let session: Session | undefined;
  let pid: number | undefined;
  let retryDelay = retryMinMs;
  let retryTimer: NodeJS.Timeout | undefined;
  let attempt: Promise<void> | undefined;
  let stopping: Promise<void> | undefined;
  let lostBefore = false;

  const setState = (next: BusState): void => {
    if (next === current) return;
    current = next;
    for (const listener of [...stateListeners]) listener(next);
  };

  const deliver = (channel: string, payload: string | undefined): void => {
    for (const handler of [...(handlers.get(channel) ?? [])]) {
      try {
        handler(payload ?? '');
      } catch (error) {
        log.warn({ err: error, channel }, 'notification bus: a subscriber failed');
      }
    }
  };

  const wakeReady = (target: Session): void => {
    if (session !== target) return;
    for (const channel of target.listened) {
      const waiters = readyWaiters.get(channel);
      readyWaiters.delete(channel);
      for (const wake of waiters ?? []) wake();
    }
  };

  // LISTENs on every subscribed channel the session does not listen to yet.
  const listenAll = async (target: Session): Promise<void> => {
    for (;;) {
      const missing = [...handlers.keys()].filter((channel) => !target.listened.has(channel));
      if (missing.length === 0) return;
      for (const channel of missing) {
        await target.connection.query(`LISTEN "${channel}"`);
        target.listened.add(channel);
      }
      wakeReady(target);
    }
  };

  const scheduleRetry = (): void => {
    if (!running || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      attempt = connect();
    }, retryDelay);
    retryTimer.unref();
    retryDelay = Math.min(retryDelay * 2, retryMaxMs);
  };

  const lost = (error: unknown): void => {
    lostBefore = true;
    log.warn({ err: error }, 'notification bus: LISTEN connection unavailable; retrying');
    setState('down');
    scheduleRetry();
  };

  const connect = async (): Promise<void> => {
    if (!running) return;
    setState('connecting');
    let connection: pg.PoolClient;
    try {
      connection = await db.connect();
    } catch (error) {
      if (running) lost(error);
      return;
    }
    let dropped = false;
    const candidate: Session = {
      connection,
      listened: new Set(),
      drop(error) {
        if (dropped) return;
        dropped = true;
        // Destroyed, never returned to the pool: a session that listened stays out of reuse.
        connection.release(error ?? true);
        if (session !== candidate) return;
        session = undefined;
        pid = undefined;
        if (running) lost(error);
      },
    };
    connection.on('error', (error) => candidate.drop(error));
    connection.on('end', () => candidate.drop());
    connection.on('notification', ({ channel, payload }) => deliver(channel, payload));
    try {
      const { rows } = await connection.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await listenAll(candidate);
      if (dropped) {
        if (running) lost(new Error('The LISTEN connection closed while it was being set up'));
        return;
      }
      if (!running) {
        candidate.drop();
        return;
      }
      session = candidate;
      pid = rows[0]?.pid;
    } catch (error) {
      candidate.drop();
      if (running) lost(error);
      return;
    }
    retryDelay = retryMinMs;
    if (lostBefore) log.info({}, 'notification bus: listening again');
    setState('listening');
    wakeReady(candidate);
  };

  return {
    listen(channel, onPayload) {
      if (!channelPattern.test(channel)) throw new Error(`Unusable channel name: ${channel}`);
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
      }
      set.add(onPayload);
      const live = session;
      const ready =
        live?.listened.has(channel) === true
          ? Promise.resolve()
          : new Promise<void>((resolve) => {
              readyWaiters.set(channel, [...(readyWaiters.get(channel) ?? []), resolve]);
            });
      if (live && !live.listened.has(channel)) {
        // A failed LISTEN means a broken connection: drop it and start over.
        listenAll(live).catch((error: unknown) =>
          live.drop(error instanceof Error ? error : undefined),
        );
      }
      return {
        ready,
        // The channel stays LISTENed until the next reconnection; unwanted payloads are ignored.
        close() {
          set.delete(onPayload);
          if (set.size === 0 && handlers.get(channel) === set) handlers.delete(channel);
        },
      };
    },
    state: () => current,
    onStateChange(listener) {
      stateListeners.add(listener);
      return () => {
        stateListeners.delete(listener);
      };
    },
    backendPid: () => pid,
    start() {
      if (running) return attempt ?? Promise.resolve();
      running = true;
      // After a stop still under way, so the two never share a connection.
      attempt = (stopping ?? Promise.resolve()).then(connect);
      return attempt;
    },
    stop() {
      if (!running) return stopping ?? Promise.resolve();
      running = false;
      clearTimeout(retryTimer);
      retryTimer = undefined;
      const pending = attempt;
      stopping = (async () => {
        await pending;
        const old = session;
        session = undefined;
        pid = undefined;
        old?.drop();
        if (!running) setState('stopped');
      })();
      return stopping;
    },
  };
};
