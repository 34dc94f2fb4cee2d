import type { FastifyBaseLogger } from 'fastify';
import type { NotificationBus } from '../../infra/db/notification-bus.js';
import { type BusMessage, parseBusMessage } from './bus-messages.js';

// NOTIFY payloads must stay below 8000 bytes; leave room for the channel name and framing (the
// same limit is kept on NATS, whose default is 1 MB, so both engines carry the same messages).
export const maxNotifyBytes = 7_500;

// Node ids are random hex generated here, so the channel name is always a safe identifier.
const channelOf = (nodeId: string): string => `cloudlink_${nodeId}`;

export type NodeBus = {
  // Sends one message to a node's channel (delivered only while that node listens).
  publish(nodeId: string, message: BusMessage): Promise<void>;
  close(): void;
};

// This node's channel on the process's message bus (NATS when configured, otherwise the LISTEN
// connection, ctx.notifications): listened to from the app's ready on, and again after a lost
// connection is back; messages sent meanwhile are lost (at most once), and their requests time
// out on the sending side.
export const createNodeBus = (
  notifications: Pick<NotificationBus, 'listen' | 'publish'>,
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
      await notifications.publish(channelOf(target), JSON.stringify(message));
    },
    close: () => subscription.close(),
  };
};
