import { createServer, type IncomingHttpHeaders } from 'node:http';

// A strict fake of Plausible's events API (POST /api/event), the one call the forwarder makes:
// Plausible is a third-party service that cannot run here. It answers 202 as Plausible does,
// refuses anything but a JSON POST to that path, and records what it took.
export type PlausibleFake = {
  url: string;
  received: { headers: IncomingHttpHeaders; body: unknown }[];
  // The status the next events get (202 by default).
  answer(status: number): void;
  // Resolves once `count` events have been received in all.
  waitFor(count: number): Promise<void>;
  close(): Promise<void>;
};

export const startPlausibleFake = async (): Promise<PlausibleFake> => {
  const received: PlausibleFake['received'] = [];
  const waiters: { count: number; wake(): void }[] = [];
  let status = 202;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const known =
        request.method === 'POST' &&
        request.url === '/api/event' &&
        request.headers['content-type'] === 'application/json' &&
        typeof request.headers['user-agent'] === 'string';
      if (!known) {
        response.writeHead(400).end('{"error":"unexpected request"}');
        return;
      }
      received.push({
        headers: request.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      for (const waiter of [...waiters]) {
        if (received.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.wake();
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The fake has no port');
  const { port } = address;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer(next) {
      status = next;
    },
    waitFor(count) {
      if (received.length >= count) return Promise.resolve();
      return new Promise((wake) => waiters.push({ count, wake }));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
