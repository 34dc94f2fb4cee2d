import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { Database } from '../../infra/db/database.js';
import { logFailure } from '../../infra/logging/log-failure.js';
import { type BusMessage, parseBusMessage } from './bus-messages.js';

// NOTIFY payloads must stay below 8000 bytes; leave room for the channel name and framing.
export const maxNotifyBytes = 7_500;

// Node ids are random hex generated here, so the channel name is always a safe identifier.
const channelOf = (nodeId: string): string => `cloudlink_${nodeId}`;

export type NodeBus = {
  // Sends one message to a node's channel (delivered only while that node listens).
  publish(nodeId: string, message: BusMessage): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
};

// This node's LISTEN connection. A dropped connection (database restart) is re-established after
// a second; messages sent meanwhile are lost, and their requests time out on the sending side.
export const createNodeBus = (
  db: Database,
  nodeId: string,
  onMessage: (message: BusMessage) => void,
  log: FastifyBaseLogger,
): NodeBus => {
  const channel = channelOf(nodeId);
  let client: pg.PoolClient | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const scheduleRetry = (): void => {
    if (stopped) return;
    retry = setTimeout(() => {
      listen().catch((error: unknown) => {
        logFailure(log, error, 'cloudlink: LISTEN reconnect failed; retrying');
        scheduleRetry();
      });
    }, 1_000);
  };

  const listen = async (): Promise<void> => {
    const connection = await db.connect();
    const drop = (error?: Error): void => {
      if (client !== connection) return;
      client = undefined;
      connection.release(error ?? true);
      if (stopped) return;
      if (error) logFailure(log, error, 'cloudlink: LISTEN connection lost; reconnecting');
      scheduleRetry();
    };
    client = connection;
    connection.on('notification', (notification) => {
      if (notification.channel !== channel) return;
      const message = parseBusMessage(notification.payload);
      if (message) onMessage(message);
      else log.warn({ channel }, 'cloudlink: ignored an unreadable bus message');
    });
    connection.on('error', drop);
    connection.on('end', () => drop());
    try {
      await connection.query(`LISTEN "${channel}"`);
    } catch (error) {
      client = undefined;
      connection.release(true);
      throw error;
    }
  };

  return {
    async publish(target, message) {
      await db.query('SELECT pg_notify($1, $2)', [channelOf(target), JSON.stringify(message)]);
    },
    start: listen,
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const connection = client;
      client = undefined;
      if (!connection) return;
      // Destroyed rather than returned to the pool: a session that listened stays out of reuse.
      connection.release(true);
    },
  };
};
