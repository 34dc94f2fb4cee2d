// CPU time of Node's HTTP work for one 304 target-state poll, without the network: requests as
// the bench's load generator sends them are written into an in-memory connection of a server
// built with fastAnswersServer (the same request handler and header writing as in production),
// its answers discarded. Compares the answer's transport headers as they were (helmet's set and
// the CORS headers, 13) with the device-protocol set (nosniff, Vary), and a bare Fastify
// `GET /hello` (the poll scenario's reference). Not part of `npm run bench`: run it alone,
// `npx tsx --conditions=source packages/server/bench/poll-answer-harness.ts [polls] [runs] [side]`
// (side: before, after or hello, one side only, e.g. under NODE_OPTIONS=--cpu-prof).
import { Duplex } from 'node:stream';
import type { Server } from 'node:http';
import Fastify from 'fastify';
import helmet from 'helmet';
import type { Actor } from '../src/infra/auth/actor.js';
import { addFastRoute, fastAnswersServer } from '../src/infra/http/fast-answers.js';
import { deviceProtocolCorsHeaders } from '../src/infra/http/cors.js';
import { deviceProtocolSecurityHeaders } from '../src/infra/http/security-headers.js';

const polls = Number(process.argv[2] ?? 100_000);
const runs = Number(process.argv[3] ?? 7);
const only = process.argv[4];
const devices = 10_000;
// Pipelined requests per write into the connection (the server answers them in turn).
const batch = 50;

// The headers every answer carried before (helmet's, as security-headers.ts configures it, and
// what the CORS plugin adds without Origin when any origin may call).
const helmetHeaders = (): Record<string, string> => {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), value),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  const middleware = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'none'"],
        'frame-ancestors': ["'none'"],
        'base-uri': ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
  });
  // helmet's types want Node's request and response; it only calls these two methods.
  Reflect.apply(middleware, undefined, [{}, response, () => undefined]);
  return Object.fromEntries(headers);
};

const beforeHeaders = {
  ...helmetHeaders(),
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Retry-After, ETag, Location',
};
const afterHeaders = { ...deviceProtocolSecurityHeaders, ...deviceProtocolCorsHeaders };

type Device = { uuid: string; key: string; etag: string };
const fleet: Device[] = Array.from({ length: devices }, (_, index) => ({
  uuid: index.toString(16).padStart(32, '0'),
  key: `key-${index.toString(36).padStart(30, 'k')}`,
  etag: `"${index.toString(16).padStart(40, 'e')}"`,
}));
const byUuid = new Map(fleet.map((device) => [device.uuid, device]));
const actors = new Map<string, Actor>(
  fleet.map((device, index) => [
    device.key,
    { kind: 'device', deviceId: index + 1, actorId: index + 1, applicationId: 1 },
  ]),
);

const pollRequest = (device: Device) =>
  `GET /device/v3/${device.uuid}/state HTTP/1.1\r\nhost: 127.0.0.1:40000\r\nconnection: keep-alive\r\n` +
  `authorization: Bearer ${device.key}\r\nif-none-match: ${device.etag}\r\n\r\n`;
const helloRequest = () =>
  'GET /hello HTTP/1.1\r\nhost: 127.0.0.1:40000\r\nconnection: keep-alive\r\n\r\n';

const silent = { level: 'info', stream: { write: () => undefined } };

const pollServer = async (transportHeaders: Record<string, string>): Promise<Server> => {
  const fast = fastAnswersServer(
    { cachedActor: (token) => actors.get(token), transportHeaders },
    { maxHeaderSize: 32_768 },
  );
  const app = Fastify({ serverFactory: fast.serverFactory, logger: silent });
  fast.attach(app);
  addFastRoute(app, {
    url: '/device/v3/:uuid/state',
    access: 'device',
    answer(path, headers) {
      const device = byUuid.get(path.slice('/device/v3/'.length, -'/state'.length));
      if (device === undefined || headers['if-none-match'] !== device.etag) return undefined;
      return { status: 304, headers: { etag: device.etag, 'cache-control': 'no-cache' } };
    },
  });
  app.get('/device/v3/:uuid/state', { config: { access: 'device' } }, () => 'not from memory');
  await app.ready();
  return app.server;
};

const helloServer = async (): Promise<Server> => {
  const app = Fastify({ logger: silent });
  app.get('/hello', async () => 'OK');
  await app.ready();
  return app.server;
};

// An in-memory connection: what the server writes is counted (answers, bytes) and discarded.
const connect = (server: Server) => {
  const counts = { answered: 0, bytes: 0 };
  let waiting: { count: number; done: () => void } | undefined;
  const socket = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, callback) {
      counts.bytes += chunk.length;
      const text = chunk.toString('latin1');
      for (let at = text.indexOf('HTTP/1.1 '); at !== -1; at = text.indexOf('HTTP/1.1 ', at + 1)) {
        counts.answered += 1;
      }
      if (waiting && counts.answered >= waiting.count) waiting.done();
      callback();
    },
  });
  // What the server calls on a net.Socket besides the stream's methods.
  Object.assign(socket, {
    setTimeout: () => socket,
    setNoDelay: () => socket,
    remoteAddress: '127.0.0.1',
  });
  server.emit('connection', socket);
  const send = async (requests: string) => {
    const count = counts.answered + batch;
    const done = new Promise<void>((resolve) => (waiting = { count, done: resolve }));
    socket.push(requests);
    await done;
  };
  return { send, counts };
};

type Side = {
  name: string;
  send: (requests: string) => Promise<void>;
  counts: { answered: number; bytes: number };
  batches: string[];
  best: number;
};

const side = (name: string, server: Server, request: (device: Device) => string): Side => {
  const batches: string[] = [];
  for (let first = 0; first < devices; first += batch) {
    batches.push(
      fleet
        .slice(first, first + batch)
        .map((device) => request(device))
        .join(''),
    );
  }
  return { name, ...connect(server), batches, best: Infinity };
};

// CPU time per request (user + system) of one run.
const run = async (current: Side): Promise<number> => {
  const started = process.cpuUsage();
  for (let sent = 0; sent < polls; sent += batch) {
    await current.send(current.batches[(sent / batch) % current.batches.length] ?? '');
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / polls;
};

const main = async () => {
  const all = [
    ['before', '304, transport headers before (13)', () => pollServer(beforeHeaders), pollRequest],
    ['after', '304, device-protocol headers (2)', () => pollServer(afterHeaders), pollRequest],
    ['hello', 'GET /hello, bare Fastify', helloServer, helloRequest],
  ] as const;
  const sides: Side[] = [];
  for (const [key, name, server, request] of all) {
    if (only === undefined || only === key) sides.push(side(name, await server(), request));
  }
  // Warm-up; then the sides in turn in every run (the machine's load drifts), best of the runs.
  for (const current of sides) for (const text of current.batches) await current.send(text);
  for (let round = 0; round < runs; round += 1) {
    for (const current of sides) current.best = Math.min(current.best, await run(current));
  }
  console.log(
    `${polls} requests per run, best of ${runs}: µs of CPU per request, bytes per answer`,
  );
  for (const current of sides) {
    const bytes = current.counts.bytes / current.counts.answered;
    console.log(`${current.name}: ${current.best.toFixed(2)} µs, ${bytes.toFixed(0)} bytes`);
  }
};

await main();
