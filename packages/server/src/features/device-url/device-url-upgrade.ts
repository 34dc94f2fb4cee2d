import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { rawHeaderLines, returnedResponseHeaders } from './device-url-headers.js';
import { type DeviceUrlPage, pageHeaders, pageHtml } from './device-url-pages.js';
import { failurePage, type TunnelOpener } from './device-url-proxy.js';

const statusLine = (status: number): string =>
  `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Unknown'}\r\n`;

const writePage = (socket: Duplex, page: DeviceUrlPage): void => {
  const body = pageHtml(page);
  socket.end(
    `${statusLine(page.status)}${rawHeaderLines({ ...pageHeaders(page, body), connection: 'close' })}\r\n${body}`,
  );
};

// An upgrade (websocket) to a public device URL: the handshake is forwarded over a tunnel;
// once the device switches protocols, bytes flow both ways until either side closes.
export const serveDeviceUrlUpgrade = (open: TunnelOpener, log: FastifyBaseLogger) => {
  const serve = async (
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    uuid: string,
  ): Promise<void> => {
    const opened = await open(request, uuid, request.headers.upgrade ?? 'websocket');
    if (!('upstream' in opened)) {
      writePage(socket, opened);
      return;
    }
    const { upstream, tunnel } = opened;
    if (socket.destroyed) {
      tunnel.destroy();
      return;
    }
    socket.on('error', () => tunnel.destroy());
    socket.on('close', () => tunnel.destroy());
    upstream.on('error', (error) => {
      if (socket.writable) writePage(socket, failurePage(error));
    });
    upstream.on('upgrade', (answer, _tunnel, upstreamHead) => {
      socket.write(
        `${statusLine(101)}${rawHeaderLines({
          ...returnedResponseHeaders(answer.headers),
          connection: 'Upgrade',
          upgrade: answer.headers.upgrade ?? 'websocket',
        })}\r\n`,
      );
      if (upstreamHead.byteLength > 0) socket.write(upstreamHead);
      if (head.byteLength > 0) tunnel.write(head);
      tunnel.on('error', () => socket.destroy());
      tunnel.on('close', () => socket.destroy());
      tunnel.pipe(socket);
      socket.pipe(tunnel);
    });
    // The device refused the upgrade: its answer goes back as it is, then the socket closes.
    upstream.on('response', (answer) => {
      socket.write(
        `${statusLine(answer.statusCode ?? 502)}${rawHeaderLines({
          ...returnedResponseHeaders(answer.headers),
          connection: 'close',
        })}\r\n`,
      );
      answer.pipe(socket);
    });
    upstream.end();
  };
  return (request: IncomingMessage, socket: Duplex, head: Buffer, uuid: string): void => {
    serve(request, socket, head, uuid).catch((error: unknown) => {
      log.error({ err: error }, 'device url: upgrade failed');
      socket.destroy();
    });
  };
};
