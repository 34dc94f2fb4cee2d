import { type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../../infra/db/database.js';
import type { Cloudlink } from '../cloudlink/register-cloudlink.js';
import { CloudlinkError } from '../cloudlink/cloudlink-error.js';
import { forwardedRequestHeaders } from './device-url-headers.js';
import type { DeviceUrlLimits } from './device-url-limits.js';
import { type DeviceUrlPage, pages } from './device-url-pages.js';
import { TunnelError, TunnelSocket } from './tunnel-socket.js';

// Opens tunnels for public device URL requests: finds the device (only while is_web_accessible
// is true), holds one of its stream slots, opens a cloudlink stream to its web server and
// starts an HTTP request over it. The HTTP and websocket sides (device-url-http.ts,
// device-url-upgrade.ts) use it and answer with `pages` when it refuses.

export type OpenedTunnel = { upstream: ClientRequest; tunnel: TunnelSocket };

export type TunnelOpener = (
  request: IncomingMessage,
  uuid: string,
  upgrade: string | undefined,
) => Promise<OpenedTunnel | DeviceUrlPage>;

export type TunnelDeps = {
  db: Queryable;
  cloudlink: Pick<Cloudlink, 'openTerminal'>;
  limits: DeviceUrlLimits;
  log: FastifyBaseLogger;
};

const isEncrypted = (socket: IncomingMessage['socket']): boolean =>
  'encrypted' in socket && socket.encrypted === true;

// The page for a tunnel that failed before the device answered.
export const failurePage = (error: unknown): DeviceUrlPage => {
  if (error instanceof TunnelError) {
    if (error.failure === 'offline') return pages.offline;
    if (error.failure === 'timeout') return pages.timeout;
  }
  return pages.unreachable;
};

export const createTunnelOpener = (deps: TunnelDeps): TunnelOpener => {
  const { db, cloudlink, limits } = deps;
  const streams = new Map<number, number>();

  const release = (deviceId: number): void => {
    const left = (streams.get(deviceId) ?? 1) - 1;
    if (left <= 0) streams.delete(deviceId);
    else streams.set(deviceId, left);
  };

  return async (request, uuid, upgrade) => {
    const { rows } = await db.query<{ id: number; is_web_accessible: boolean }>(
      'SELECT "id", "is_web_accessible" FROM "device" WHERE "uuid" = $1',
      [uuid],
    );
    const device = rows[0];
    if (!device?.is_web_accessible) return pages.notFound;
    const held = streams.get(device.id) ?? 0;
    if (held >= limits.maxStreamsPerDevice) return pages.busy;
    streams.set(device.id, held + 1);
    const tunnel = new TunnelSocket(
      upgrade === undefined ? limits.idleTimeoutMs : limits.idleUpgradeMs,
    );
    tunnel.once('close', () => release(device.id));
    try {
      tunnel.attach(
        await cloudlink.openTerminal(
          device.id,
          // The size means nothing to a tunnel; the message carries one for every stream.
          { target: { kind: 'device-url' }, cols: 80, rows: 24 },
          tunnel.events,
        ),
      );
    } catch (error) {
      tunnel.destroy();
      if (error instanceof CloudlinkError) return pages.offline;
      throw error;
    }
    const upstream = httpRequest({
      method: request.method,
      path: request.url,
      headers: forwardedRequestHeaders(
        request.headers,
        { address: request.socket.remoteAddress, encrypted: isEncrypted(request.socket) },
        upgrade,
      ),
      setHost: false,
      maxHeaderSize: limits.maxResponseHeaderBytes,
      createConnection: (): Duplex => tunnel,
    });
    // Until the device starts answering; afterwards the tunnel's idle timeout applies.
    const waiting = setTimeout(() => {
      tunnel.destroy(new TunnelError('timeout', 'The device did not answer in time'));
    }, limits.responseTimeoutMs);
    waiting.unref();
    const answered = (): void => clearTimeout(waiting);
    upstream.once('response', answered);
    upstream.once('upgrade', answered);
    tunnel.once('close', answered);
    return { upstream, tunnel };
  };
};

// Request bodies are counted as they pass: over the limit, the tunnel is cut.
export const forwardBody = (
  request: IncomingMessage,
  upstream: ClientRequest,
  maxBodyBytes: number,
  onTooLarge: () => void,
): void => {
  let received = 0;
  request.on('data', (chunk: Buffer) => {
    received += chunk.byteLength;
    if (received > maxBodyBytes) {
      request.pause();
      onTooLarge();
      return;
    }
    if (!upstream.write(chunk)) request.pause();
  });
  upstream.on('drain', () => request.resume());
  request.once('end', () => {
    if (received <= maxBodyBytes) upstream.end();
  });
};

export const declaredTooLarge = (request: IncomingMessage, maxBodyBytes: number): boolean => {
  const length = Number(request.headers['content-length'] ?? '0');
  return Number.isFinite(length) && length > maxBodyBytes;
};
