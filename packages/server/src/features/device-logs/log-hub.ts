import { EventEmitter } from 'node:events';
import type pg from 'pg';
import type { Database } from '../../infra/db/database.js';
import { logChannel } from './log-store.js';

// Tells live log streams that a device has new lines. Lines written by this process are signalled
// in-process at once; lines written by any process arrive through PostgreSQL LISTEN/NOTIFY on
// one dedicated connection, opened when the first stream subscribes and kept until close. A
// signal carries no lines: each stream re-reads past the last id it sent, so a line signalled
// twice (in-process and by NOTIFY) is still sent once.

export type LogHub = {
  // Resolves once notifications are being received, so nothing written afterwards is missed.
  subscribe(deviceId: number, onSignal: () => void): Promise<() => void>;
  signal(deviceIds: readonly number[]): void;
  close(): Promise<void>;
};

const reconnectDelayMs = 1000;

export const createLogHub = (db: Database, onError: (error: unknown) => void): LogHub => {
  const emitter = new EventEmitter();
  // One listener per open stream; many streams of one device are normal.
  emitter.setMaxListeners(0);
  let client: pg.PoolClient | undefined;
  let connecting: Promise<void> | undefined;
  let closed = false;
  let subscribers = 0;

  const emitAll = (): void => {
    for (const name of emitter.eventNames()) emitter.emit(name);
  };

  // Lines written while we were deaf are caught up by the re-read every stream does.
  const reconnectLater = (): void => {
    setTimeout(() => {
      if (closed || subscribers === 0) return;
      ensureListening().then(emitAll, (error: unknown) => {
        onError(error);
        reconnectLater();
      });
    }, reconnectDelayMs).unref();
  };

  const connect = async (): Promise<void> => {
    const fresh = await db.connect();
    fresh.on('notification', (message) => {
      if (message.channel === logChannel && message.payload) emitter.emit(message.payload);
    });
    // The server went away (restart, network): listen again once it is back.
    const lost = (error?: Error): void => {
      if (client !== fresh) return;
      client = undefined;
      if (error) onError(error);
      fresh.release(error ?? true);
      reconnectLater();
    };
    fresh.on('error', lost);
    fresh.on('end', () => lost());
    try {
      await fresh.query(`LISTEN ${logChannel}`);
    } catch (error) {
      fresh.release(true);
      throw error;
    }
    if (closed) {
      fresh.release(true);
      return;
    }
    client = fresh;
  };

  const ensureListening = (): Promise<void> => {
    if (client || closed) return Promise.resolve();
    connecting ??= connect().finally(() => {
      connecting = undefined;
    });
    return connecting;
  };

  return {
    async subscribe(deviceId, onSignal) {
      const event = String(deviceId);
      emitter.on(event, onSignal);
      subscribers += 1;
      try {
        await ensureListening();
      } catch (error) {
        // Without LISTEN this process still sees its own lines; other processes' lines arrive
        // once a later subscription (or the reconnect) succeeds.
        onError(error);
      }
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        subscribers -= 1;
        emitter.off(event, onSignal);
      };
    },
    signal(deviceIds) {
      for (const deviceId of deviceIds) emitter.emit(String(deviceId));
    },
    async close() {
      closed = true;
      emitter.removeAllListeners();
      await connecting?.catch(() => undefined);
      const listening = client;
      client = undefined;
      if (listening) {
        await listening.query(`UNLISTEN ${logChannel}`).catch(() => undefined);
        listening.release(true);
      }
    },
  };
};
