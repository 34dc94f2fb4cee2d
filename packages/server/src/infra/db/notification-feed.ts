import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Database } from './database.js';

// One LISTEN connection per process for PostgreSQL notifications that invalidate in-process caches
// (features/device-state/target-state-cache.ts). A cache must not trust what it holds unless the
// feed is live: a dropped connection loses notifications, so every subscriber is reset when it
// drops and again once its channel is listened to anew (what was cached in between may have
// missed one). The connection is open while anyone subscribes (reconnecting after a delay when
// lost) and closed when the last subscriber leaves.

export type FeedSubscriber = {
  onNotification(payload: string): void;
  // Delivery had (or may have had) a gap: drop everything derived from earlier notifications.
  onReset(): void;
  // The connection failed (it is retried); for the subscriber's log.
  onError?(error: unknown): void;
};

export type NotificationFeed = {
  // Subscribes to a channel (a lower-case identifier); the returned function unsubscribes.
  subscribe(channel: string, subscriber: FeedSubscriber): () => void;
  // True while every subscribed channel is being listened to.
  isLive(): boolean;
  // Resolves once every notification committed before the call has been delivered to the
  // subscribers (PostgreSQL delivers notifications in commit order). For tests, and for callers
  // that must read their own writes through a cache. Immediate when nobody subscribes.
  sync(timeoutMs?: number): Promise<void>;
};

// Sync tokens travel on their own channel, listened to whenever anything is.
const syncChannel = 'flotilla_feed_sync';
const channelPattern = /^[a-z_][a-z0-9_]{0,62}$/;

export type NotificationFeedOptions = { reconnectDelayMs?: number };

export const createNotificationFeed = (
  db: Database,
  options: NotificationFeedOptions = {},
): NotificationFeed => {
  const reconnectDelayMs = options.reconnectDelayMs ?? 1000;
  const subscribers = new Map<string, Set<FeedSubscriber>>();
  const syncWaiters = new Map<string, () => void>();
  // The open connection and the channels it listens to.
  let client: pg.PoolClient | undefined;
  const listening = new Set<string>();
  let connecting: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;
  // No subscribers: nothing to listen for.
  let idle = true;

  const onError = (error: unknown): void => {
    for (const set of subscribers.values())
      for (const subscriber of set) subscriber.onError?.(error);
  };

  const reset = (channels: Iterable<string>): void => {
    for (const channel of channels) {
      for (const subscriber of subscribers.get(channel) ?? []) subscriber.onReset();
    }
  };

  const deliver = (channel: string, payload: string): void => {
    if (channel === syncChannel) {
      syncWaiters.get(payload)?.();
      return;
    }
    for (const subscriber of subscribers.get(channel) ?? []) subscriber.onNotification(payload);
  };

  const scheduleConnect = (): void => {
    if (idle || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      ensureConnected().catch(failed);
    }, reconnectDelayMs);
    retry.unref();
  };

  const failed = (error: unknown): void => {
    onError(error);
    scheduleConnect();
  };

  const drop = (connection: pg.PoolClient, error?: Error): void => {
    if (client !== connection) return;
    client = undefined;
    listening.clear();
    connection.release(error ?? true);
    if (error) onError(error);
    reset(subscribers.keys());
    scheduleConnect();
  };

  const listen = async (connection: pg.PoolClient, channel: string): Promise<void> => {
    await connection.query(`LISTEN "${channel}"`);
    if (client !== connection) return;
    listening.add(channel);
    reset([channel]);
  };

  const connect = async (): Promise<void> => {
    const connection = await db.connect();
    if (idle) {
      connection.release(true);
      return;
    }
    connection.on('notification', (message) => deliver(message.channel, message.payload ?? ''));
    connection.on('error', (error) => drop(connection, error));
    connection.on('end', () => drop(connection));
    client = connection;
    try {
      await listen(connection, syncChannel);
      for (const channel of [...subscribers.keys()]) await listen(connection, channel);
    } catch (error) {
      // Closed meanwhile: nothing went wrong.
      if (client !== connection) return;
      // Reported once, by the caller; drop only releases, resets and schedules the retry.
      drop(connection);
      throw error;
    }
  };

  // Resolves once the connection is open and listening (at once when it is, or when idle).
  const ensureConnected = (): Promise<void> => {
    if (connecting) return connecting;
    if (client || idle) return Promise.resolve();
    connecting = connect().finally(() => {
      connecting = undefined;
    });
    return connecting;
  };

  const disconnect = (): void => {
    idle = true;
    clearTimeout(retry);
    retry = undefined;
    const open = client;
    client = undefined;
    listening.clear();
    // Destroyed rather than returned to the pool: a session that listened stays out of reuse.
    open?.release(true);
  };

  return {
    subscribe(channel, subscriber) {
      if (!channelPattern.test(channel) || channel === syncChannel) {
        throw new Error(`Not a channel name: ${channel}`);
      }
      let set = subscribers.get(channel);
      if (!set) {
        set = new Set();
        subscribers.set(channel, set);
        // An open connection listens to the new channel too (connect() covers one being opened).
        if (client && listening.has(syncChannel)) {
          const open = client;
          listen(open, channel).catch((error: unknown) =>
            drop(open, error instanceof Error ? error : new Error(String(error))),
          );
        }
      }
      const own = set;
      own.add(subscriber);
      idle = false;
      ensureConnected().catch(failed);
      return () => {
        own.delete(subscriber);
        if (own.size === 0 && subscribers.get(channel) === own) subscribers.delete(channel);
        if (subscribers.size === 0) disconnect();
      };
    },
    isLive: () =>
      client !== undefined &&
      listening.has(syncChannel) &&
      [...subscribers.keys()].every((channel) => listening.has(channel)),
    async sync(timeoutMs = 10_000) {
      if (idle) return;
      await ensureConnected();
      const token = randomUUID();
      const delivered = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          syncWaiters.delete(token);
          reject(new Error('The notification feed did not deliver its sync token in time'));
        }, timeoutMs);
        syncWaiters.set(token, () => {
          clearTimeout(timer);
          syncWaiters.delete(token);
          resolve();
        });
      });
      await db.query('SELECT pg_notify($1, $2)', [syncChannel, token]);
      await delivered;
    },
  };
};
