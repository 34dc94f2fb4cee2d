import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../infra/db/database.js';
import type { NotificationBus } from '../../infra/db/notification-bus.js';
import { type BusMessage, parseBusMessage } from './bus-messages.js';

// NOTIFY payloads must stay below 8000 bytes; leave room for the channel name and framing.
export const maxNotifyBytes = 7_500;

// Node ids are random hex generated here, so the channel name is always a safe identifier.
const channelOf = (nodeId: string): string => `cloudlink_${nodeId}`;

export type NodeBus = {
  // Sends one message to a node's channel (delivered only while that node listens).
  publish(nodeId: string, message: BusMessage): Promise<void>;
  close(): void;
};

// This node's channel, on the process's LISTEN connection (ctx.notifications): listened to from
// the app's ready on (the connection's first attempt LISTENs it), and again after a lost
// connection is back; messages sent meanwhile are lost, and their requests time out on the
// sending side.
export const createNodeBus = (
  notifications: Pick<NotificationBus, 'listen'>,
  db: Pick<Database, 'query'>,
  nodeId: string,
  onMessage: (message: BusMessage) => void,
  log: FastifyBaseLogger,
): NodeBus => {
  const channel = channelOf(nodeId);
  const subscription = notifications.listen(channel, (payload) => {
    const message = parseBusMessage(payload);
    if (message) onMessage(message);
    else log.warn({ channel }, 'cloudlink: ignored an unreadable bus message');
  });
  return {
    async publish(target, message) {
      await db.query('SELECT pg_notify($1, $2)', [channelOf(target), JSON.stringify(message)]);
    },
    close: () => subscription.close(),
  };
};
