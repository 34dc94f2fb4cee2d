import { createServer, type RequestListener, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { terminalWindowBytes } from '@flotilla/shared/terminal/terminal-constants';
import {
  type DeviceMessage,
  readTerminalFrame,
  terminalFrame,
} from '@flotilla/shared/cloudlink/messages';
import type { WebSocket } from 'ws';

// The public device URL side of a fake device: each terminal-open whose target is `device-url`
// becomes a TCP connection to a local HTTP server, as the agent does with port 80, with the
// same flow control (reading stops once a window of bytes is unacknowledged).

type Tunnel = { connection: Socket; unacknowledged: number };

export type FakeDeviceWeb = {
  server: Server;
  // Tunnels the server opened so far, and the most bytes ever left unacknowledged on one.
  opened: number;
  peakUnacknowledged: number;
  // Bytes sent to the server over every tunnel.
  sentBytes: number;
  // True while some tunnel waits for acknowledgements (a full window in flight).
  stalled(): boolean;
  // True when the message or frame belonged to a tunnel.
  message(socket: WebSocket, value: unknown): boolean;
  frame(socket: WebSocket, data: Uint8Array): boolean;
  close(): Promise<void>;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

export const startFakeDeviceWeb = async (handler: RequestListener): Promise<FakeDeviceWeb> => {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const tunnels = new Map<number, Tunnel>();
  // Sessions that ended here: the server's late acknowledgements and bytes for them are fine.
  const ended = new Set<number>();

  const send = (socket: WebSocket, message: DeviceMessage): void => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };

  const open = (socket: WebSocket, session: number): void => {
    const connection = connect(address.port, '127.0.0.1');
    const tunnel: Tunnel = { connection, unacknowledged: 0 };
    tunnels.set(session, tunnel);
    web.opened++;
    send(socket, { type: 'terminal-opened', session });
    connection.on('data', (data) => {
      tunnel.unacknowledged += data.byteLength;
      web.sentBytes += data.byteLength;
      web.peakUnacknowledged = Math.max(web.peakUnacknowledged, tunnel.unacknowledged);
      if (socket.readyState === socket.OPEN) socket.send(terminalFrame(session, data));
      if (tunnel.unacknowledged >= terminalWindowBytes) connection.pause();
    });
    connection.on('error', () => undefined);
    connection.on('close', () => {
      if (!tunnels.delete(session)) return;
      ended.add(session);
      send(socket, { type: 'terminal-exit', session, code: null });
    });
  };

  const web: FakeDeviceWeb = {
    server,
    opened: 0,
    peakUnacknowledged: 0,
    sentBytes: 0,
    stalled: () =>
      [...tunnels.values()].some((tunnel) => tunnel.unacknowledged >= terminalWindowBytes),
    message(socket, value) {
      if (!isRecord(value) || typeof value.session !== 'number') return false;
      const { session } = value;
      if (value.type === 'terminal-open') {
        if (!isRecord(value.target) || value.target.kind !== 'device-url') return false;
        open(socket, session);
        return true;
      }
      const tunnel = tunnels.get(session);
      if (!tunnel) return ended.has(session);
      if (value.type === 'terminal-ack') {
        tunnel.unacknowledged = Math.max(0, tunnel.unacknowledged - Number(value.bytes));
        if (tunnel.unacknowledged < terminalWindowBytes) tunnel.connection.resume();
        return true;
      }
      if (value.type === 'terminal-close') {
        tunnels.delete(session);
        ended.add(session);
        tunnel.connection.destroy();
        return true;
      }
      return false;
    },
    frame(_socket, data) {
      const frame = readTerminalFrame(data);
      if (!frame) return false;
      const tunnel = tunnels.get(frame.session);
      if (!tunnel) return ended.has(frame.session);
      tunnel.connection.write(frame.data);
      return true;
    },
    async close() {
      for (const tunnel of tunnels.values()) tunnel.connection.destroy();
      tunnels.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return web;
};
