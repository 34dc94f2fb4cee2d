import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export type Received = { headers: IncomingHttpHeaders; body: string };

// A webhook receiver on loopback for tests: records every request, answers what `answer` says.
export type TestReceiver = {
  url: string;
  received: Received[];
  // The status to answer the next requests with (200 by default), per request.
  answer: (received: Received) => number;
  close(): Promise<void>;
};

export const startTestReceiver = async (): Promise<TestReceiver> => {
  const state: TestReceiver = {
    url: '',
    received: [],
    answer: () => 200,
    close: () => Promise.resolve(),
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      state.received.push(received);
      response.statusCode = state.answer(received);
      response.end(`answer ${response.statusCode} `.repeat(200));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('The receiver has no port');
  state.url = `http://127.0.0.1:${address.port}/hook`;
  state.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
};
