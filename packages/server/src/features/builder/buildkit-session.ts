import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { createServer, type IncomingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import type { Socket } from 'node:net';
import type { DockerHost } from '../../infra/config/builder.js';
import { bytesField, textOf, varintField, wireFields } from './protobuf-wire.js';

// A BuildKit session with the engine that serves a build its secrets: the engine's /session
// endpoint turns the connection into HTTP/2 on which the engine calls the builder (gRPC) for each
// secret a `RUN --mount=type=secret` step mounts. The secrets stay in this process's memory and
// reach the step's mount only, never a layer. Besides the secrets it answers the engine's health
// checks, which keep the session open.

export type SecretSession = { id: string; close(): void };

const secretsMethod = '/moby.buildkit.secrets.v1.Secrets/GetSecret';
const healthMethod = '/grpc.health.v1.Health/Check';

// gRPC's message framing: not compressed, the length, the message.
const framed = (message: Buffer): Buffer => {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(message.length, 1);
  return Buffer.concat([head, message]);
};

// gRPC status codes of the answers.
const notFound = 5;
const unimplemented = 12;

const answer = (stream: ServerHttp2Stream, status: number, message?: Buffer, why?: string) => {
  stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
  stream.on('wantTrailers', () =>
    stream.sendTrailers({
      'grpc-status': String(status),
      ...(why === undefined ? {} : { 'grpc-message': encodeURIComponent(why) }),
    }),
  );
  stream.end(message === undefined ? undefined : framed(message));
};

const serve =
  (secrets: ReadonlyMap<string, Buffer>) =>
  (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => {
    const path = headers[':path'];
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // A request names a secret: a few bytes. More is no request of the engine's.
      if (size > 64 * 1024) stream.close();
      else chunks.push(chunk);
    });
    stream.on('error', () => undefined);
    stream.on('end', () => {
      if (path === healthMethod) {
        // HealthCheckResponse { status: SERVING }
        answer(stream, 0, varintField(1, 1));
        return;
      }
      if (path !== secretsMethod) {
        answer(stream, unimplemented, undefined, 'not served by this builder');
        return;
      }
      // GetSecretRequest { string ID = 1 } → GetSecretResponse { bytes data = 1 }
      const id = textOf(wireFields(Buffer.concat(chunks).subarray(5)), 1) ?? '';
      const secret = secrets.get(id);
      if (secret === undefined) answer(stream, notFound, undefined, `no secret ${id}`);
      else answer(stream, 0, bytesField(1, secret));
    });
  };

// Opening it stops when `signal` aborts; closing it is the caller's.
export const openSecretSession = async (
  host: DockerHost,
  secrets: ReadonlyMap<string, Buffer>,
  signal: AbortSignal,
): Promise<SecretSession> => {
  const id = randomBytes(16).toString('hex');
  const socket = await new Promise<Socket>((resolve, reject) => {
    const call = request({
      ...('socketPath' in host
        ? { socketPath: host.socketPath }
        : { host: host.host, port: host.port }),
      path: '/session',
      method: 'POST',
      signal,
      headers: {
        'Content-Length': '0',
        Connection: 'Upgrade',
        Upgrade: 'h2c',
        'X-Docker-Expose-Session-Uuid': id,
        'X-Docker-Expose-Session-Name': 'flotilla-builder',
        'X-Docker-Expose-Session-Sharedkey': id,
        'X-Docker-Expose-Session-Grpc-Method': [healthMethod, secretsMethod],
      },
    });
    call.on('upgrade', (_response, upgraded: Socket, head: Buffer) => {
      if (head.length > 0) upgraded.unshift(head);
      resolve(upgraded);
    });
    call.on('response', (response) => {
      response.resume();
      reject(new Error(`the engine opened no build session (HTTP ${response.statusCode ?? 0})`));
    });
    call.on('error', reject);
    call.end();
  });
  socket.on('error', () => undefined);
  const server = createServer();
  server.on('stream', serve(secrets));
  server.on('sessionError', () => undefined);
  server.emit('connection', socket);
  return {
    id,
    close() {
      socket.destroy();
      server.close();
    },
  };
};
