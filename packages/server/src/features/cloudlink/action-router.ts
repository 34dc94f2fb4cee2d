import { randomUUID } from 'node:crypto';
import type { ActionParams, ActionResult, DeviceAction } from '@flotilla/shared/cloudlink/messages';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../infra/db/database.js';
import { type BusMessage, type BusOutcome, type BusRequest, storedResult } from './bus-messages.js';
import {
  CloudlinkError,
  deviceDisconnected,
  deviceOffline,
  deviceTimedOut,
} from './cloudlink-error.js';
import { clampTimeout, type CloudlinkOptions } from './cloudlink-options.js';
import { closeCodes } from './device-link.js';
import type { LinkRegistry } from './link-registry.js';
import { maxNotifyBytes, type NodeBus } from './node-bus.js';
import { liveHolder, storeReply, takeReply } from './session-store.js';

// Extra wait for a reply from another node beyond the device timeout it applies itself, so its
// own "timeout" answer (with the clearer message) normally arrives first.
const remoteGraceMs = 1_000;

export type SendAction = (
  deviceId: number,
  action: DeviceAction,
  params: ActionParams,
  timeoutMs?: number,
) => Promise<ActionResult>;

export type ActionRouter = {
  sendAction: SendAction;
  handle(message: BusMessage): void;
  // Shutdown: every request still waiting for another node fails at once.
  failWaiting(): void;
};

type Waiting = {
  resolve: (result: ActionResult) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
};

type RouterDeps = {
  db: Database;
  nodeId: string;
  links: LinkRegistry;
  bus: NodeBus;
  options: CloudlinkOptions;
  log: FastifyBaseLogger;
};

const outcomeOf = (error: unknown): BusOutcome =>
  error instanceof CloudlinkError
    ? { type: 'failure', failure: error.failure, message: error.message }
    : { type: 'failure', failure: 'disconnected', message: deviceDisconnected().message };

// Sends actions to devices wherever their cloudlink lives: through the socket when this process
// holds it, otherwise as a NOTIFY to the node named by cloudlink_session, which runs the action
// and NOTIFYs the answer back. A device with no live session fails at once ("offline"); a holder
// that never answers fails after the timeout, so no request waits forever.
export const createActionRouter = (deps: RouterDeps): ActionRouter => {
  const { db, nodeId, links, bus, options, log } = deps;
  const waiting = new Map<string, Waiting>();

  const viaNode = (
    holder: string,
    deviceId: number,
    action: DeviceAction,
    params: ActionParams,
    timeoutMs: number,
  ): Promise<ActionResult> => {
    const id = randomUUID();
    return new Promise<ActionResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(deviceTimedOut(timeoutMs));
      }, timeoutMs + remoteGraceMs);
      waiting.set(id, { resolve, reject, timer });
      const request: BusRequest = {
        kind: 'request',
        id,
        replyTo: nodeId,
        deviceId,
        action,
        params,
        timeoutMs,
      };
      bus.publish(holder, request).catch((error: unknown) => {
        clearTimeout(timer);
        waiting.delete(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  };

  const sendAction: SendAction = async (deviceId, action, params, timeoutMs) => {
    const timeout = clampTimeout(timeoutMs ?? options.actionTimeoutMs);
    const local = links.get(deviceId);
    if (local) return local.request(action, params, timeout);
    const holder = await liveHolder(db, deviceId, options.nodeStaleAfterMs);
    // A row naming this node without a local link is a connection that just closed.
    if (holder === undefined || holder === nodeId) throw deviceOffline();
    return viaNode(holder, deviceId, action, params, timeout);
  };

  // Runs another node's request on a device held here and answers on that node's channel.
  const serve = async (request: BusRequest): Promise<void> => {
    const link = links.get(request.deviceId);
    let outcome: BusOutcome;
    if (!link) outcome = outcomeOf(deviceOffline());
    else {
      try {
        const result = await link.request(
          request.action,
          request.params,
          clampTimeout(request.timeoutMs),
        );
        outcome = { type: 'result', status: result.status, body: result.body };
      } catch (error) {
        outcome = outcomeOf(error);
      }
    }
    const reply: BusMessage = { kind: 'reply', id: request.id, outcome };
    if (Buffer.byteLength(JSON.stringify(reply)) > maxNotifyBytes && outcome.type === 'result') {
      await storeReply(db, request.id, { status: outcome.status, body: outcome.body });
      await bus.publish(request.replyTo, {
        kind: 'reply',
        id: request.id,
        outcome: { type: 'stored' },
      });
      return;
    }
    await bus.publish(request.replyTo, reply);
  };

  const settle = async (id: string, outcome: BusOutcome): Promise<void> => {
    const entry = waiting.get(id);
    if (!entry) return;
    waiting.delete(id);
    clearTimeout(entry.timer);
    if (outcome.type === 'failure') {
      entry.reject(new CloudlinkError(outcome.failure, outcome.message));
      return;
    }
    if (outcome.type === 'result') {
      entry.resolve({ type: 'result', id, status: outcome.status, body: outcome.body });
      return;
    }
    try {
      const stored = storedResult.parse(await takeReply(db, id));
      entry.resolve({ type: 'result', id, status: stored.status, body: stored.body });
    } catch (error) {
      entry.reject(error instanceof Error ? error : deviceDisconnected());
    }
  };

  return {
    sendAction,
    handle(message) {
      switch (message.kind) {
        case 'request':
          serve(message).catch((error: unknown) =>
            log.error({ err: error }, 'cloudlink: could not answer a routed request'),
          );
          return;
        case 'reply':
          settle(message.id, message.outcome).catch((error: unknown) =>
            log.error({ err: error }, 'cloudlink: could not read a routed reply'),
          );
          return;
        case 'evict': {
          const link = links.get(message.deviceId);
          if (link?.connectionId === message.connectionId) {
            link.close(closeCodes.replaced, 'Replaced by a newer connection');
          }
          return;
        }
      }
    },
    failWaiting() {
      for (const [id, entry] of waiting) {
        waiting.delete(id);
        clearTimeout(entry.timer);
        entry.reject(deviceDisconnected());
      }
    },
  };
};
