import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type {
  BusMessage,
  BusTerminalControl,
  BusTerminalEvent,
  BusTerminalOpen,
} from './bus-messages.js';
import type { LinkRegistry } from './link-registry.js';
import type { NodeBus } from './node-bus.js';
import {
  deviceGoneMessage,
  type TerminalEvents,
  type TerminalOpenRequest,
  type TerminalPeer,
} from './terminal-stream.js';

// Terminal bytes per NOTIFY: base64 makes 4 KiB about 5.5 KB, well below maxNotifyBytes.
export const relayChunkBytes = 4_096;

const holderGoneMessage = 'The server holding the device’s connection went away';
const browserGoneMessage = 'The server holding the browser’s connection went away';

// Terminal sessions whose browser and device are on different server processes. The browser's
// node sends the holder (the node named by cloudlink_session) a terminal-open, then keystrokes,
// resizes, acknowledgements and the close; the holder opens the shell on its DeviceLink and
// sends back what the device says. Every message is a NOTIFY on the other node's channel, sent
// one after the other per session: PostgreSQL delivers a listener's notifications in commit
// order, so the bytes arrive in order. Nothing is buffered beyond what is in flight: the device
// stops at the flow-control window until the browser's acknowledgements come back, so each node
// holds at most one window of a session's output.
export type TerminalRelay = {
  // Opens a session on the device held by `holder` (browser's side).
  open(
    holder: string,
    deviceId: number,
    request: TerminalOpenRequest,
    events: TerminalEvents,
  ): TerminalPeer;
  handle(message: BusMessage): boolean;
  // Nodes no longer alive: their sessions end (no orphan shell when the browser's node died,
  // no silent terminal when the holder did).
  dropNodes(isAlive: (nodeId: string) => boolean): void;
  // Nodes this relay has sessions with.
  peerNodes(): Set<string>;
  // Shutdown: ends every session and waits until the other nodes have been told.
  closeAll(): Promise<void>;
};

type Sender = (message: BusMessage) => void;

type RelayDeps = { nodeId: string; links: LinkRegistry; bus: NodeBus; log: FastifyBaseLogger };

const base64 = (data: Uint8Array): string =>
  Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');

const chunks = function* (data: Uint8Array): Generator<Uint8Array> {
  for (let offset = 0; offset < data.byteLength; offset += relayChunkBytes) {
    yield data.subarray(offset, offset + relayChunkBytes);
  }
};

export const createTerminalRelay = (deps: RelayDeps): TerminalRelay => {
  const { nodeId, links, bus, log } = deps;
  // Browser's side: sessions opened on another node, by key.
  const opened = new Map<string, { holder: string; events: TerminalEvents; close(): void }>();
  // Holder's side: sessions served for another node, by key.
  const served = new Map<string, { replyTo: string; peer: TerminalPeer }>();
  const chains = new Set<Promise<void>>();

  // Publishes in order: each NOTIFY commits before the next starts.
  const sender = (target: string): Sender => {
    let chain = Promise.resolve();
    return (message) => {
      const next = chain.then(() =>
        bus.publish(target, message).catch((error: unknown) => {
          log.warn({ err: error }, 'cloudlink: a terminal message to another node was lost');
        }),
      );
      chain = next;
      chains.add(next);
      void next.finally(() => chains.delete(next));
    };
  };

  const open: TerminalRelay['open'] = (holder, deviceId, request, events) => {
    const key = randomUUID();
    const send = sender(holder);
    const close = (): void => {
      if (opened.delete(key)) send({ kind: 'terminal-close', key });
    };
    opened.set(key, { holder, events, close });
    send({ kind: 'terminal-open', key, replyTo: nodeId, deviceId, ...request });
    const control = (message: BusTerminalControl): void => {
      if (opened.has(key)) send(message);
    };
    return {
      input(data) {
        for (const chunk of chunks(data)) {
          control({ kind: 'terminal-input', key, data: base64(chunk) });
        }
      },
      resize: (size) => control({ kind: 'terminal-resize', key, ...size }),
      ack: (bytes) => control({ kind: 'terminal-ack', key, bytes }),
      close,
    };
  };

  const serve = (message: BusTerminalOpen): void => {
    const { key, replyTo, deviceId, target, cols, rows } = message;
    const send = sender(replyTo);
    const event = (value: BusTerminalEvent): void =>
      send({ kind: 'terminal-event', key, event: value });
    const end = (value: BusTerminalEvent): void => {
      served.delete(key);
      event(value);
    };
    const link = links.get(deviceId);
    if (!link) {
      event({ type: 'disconnected', message: deviceGoneMessage });
      return;
    }
    const peer = link.openTerminal(
      { target, cols, rows },
      {
        opened: () => event({ type: 'opened' }),
        failed: (text) => end({ type: 'failed', message: text }),
        output(data) {
          for (const chunk of chunks(data)) event({ type: 'output', data: base64(chunk) });
        },
        exit: (code) => end({ type: 'exit', code }),
        disconnected: (text) => end({ type: 'disconnected', message: text }),
      },
    );
    served.set(key, { replyTo, peer });
  };

  const control = (message: BusTerminalControl): void => {
    const session = served.get(message.key);
    if (!session) return;
    switch (message.kind) {
      case 'terminal-input':
        session.peer.input(Buffer.from(message.data, 'base64'));
        return;
      case 'terminal-resize':
        session.peer.resize({ cols: message.cols, rows: message.rows });
        return;
      case 'terminal-ack':
        session.peer.ack(message.bytes);
        return;
      case 'terminal-close':
        served.delete(message.key);
        session.peer.close();
        return;
    }
  };

  const deliver = (key: string, event: BusTerminalEvent): void => {
    const session = opened.get(key);
    if (!session) return;
    const { events } = session;
    switch (event.type) {
      case 'opened':
        events.opened();
        return;
      case 'output':
        events.output(Buffer.from(event.data, 'base64'));
        return;
      case 'failed':
        opened.delete(key);
        events.failed(event.message);
        return;
      case 'exit':
        opened.delete(key);
        events.exit(event.code);
        return;
      case 'disconnected':
        opened.delete(key);
        events.disconnected(event.message);
        return;
    }
  };

  return {
    open,
    handle(message) {
      switch (message.kind) {
        case 'terminal-open':
          serve(message);
          return true;
        case 'terminal-input':
        case 'terminal-resize':
        case 'terminal-ack':
        case 'terminal-close':
          control(message);
          return true;
        case 'terminal-event':
          deliver(message.key, message.event);
          return true;
        default:
          return false;
      }
    },
    dropNodes(isAlive) {
      for (const [key, session] of opened) {
        if (isAlive(session.holder)) continue;
        opened.delete(key);
        session.events.disconnected(holderGoneMessage);
      }
      for (const [key, session] of served) {
        if (isAlive(session.replyTo)) continue;
        log.info({ key }, `cloudlink: ${browserGoneMessage}; closing its terminal`);
        served.delete(key);
        session.peer.close();
      }
    },
    peerNodes: () =>
      new Set([
        ...[...opened.values()].map((session) => session.holder),
        ...[...served.values()].map((session) => session.replyTo),
      ]),
    async closeAll() {
      for (const session of [...opened.values()]) session.close();
      for (const [key, session] of served) {
        served.delete(key);
        session.peer.close();
        sender(session.replyTo)({
          kind: 'terminal-event',
          key,
          event: { type: 'disconnected', message: holderGoneMessage },
        });
      }
      await Promise.all([...chains]);
    },
  };
};
