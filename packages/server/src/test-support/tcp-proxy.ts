import { createServer, type Socket, connect } from 'node:net';

// A TCP forwarder a test can cut and restore, standing between the server and PostgreSQL like a
// network that fails: cut() drops every connection and refuses new ones until restore().
// blackhole() fails it silently instead: nothing is closed, but nothing gets through either (the
// connections open then stay dead; new ones are accepted and wait), until resume() lets the
// waiting ones through, as a network that drops packets and comes back.
export type TcpProxy = {
  // The same connection URL, through the proxy.
  via(url: string): string;
  cut(): void;
  restore(): void;
  blackhole(): void;
  resume(): void;
  close(): Promise<void>;
};

export const startTcpProxy = async (targetUrl: string): Promise<TcpProxy> => {
  const target = new URL(targetUrl);
  const targetPort = Number(target.port || '5432');
  const pairs = new Set<[Socket, Socket]>();
  // Connections accepted while blackholed, not forwarded yet.
  const waiting = new Set<Socket>();
  let open = true;
  let silent = false;
  const forward = (client: Socket): void => {
    const upstream = connect(targetPort, target.hostname);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const server = createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    if (!silent) {
      forward(client);
      return;
    }
    waiting.add(client);
    client.pause();
    const forget = (): void => {
      waiting.delete(client);
    };
    client.on('error', forget).on('close', forget);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const destroyAll = (): void => {
    for (const [client, upstream] of [...pairs]) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
    for (const client of [...waiting]) client.destroy();
    waiting.clear();
  };
  return {
    via(url) {
      const proxied = new URL(url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(port);
      return proxied.toString();
    },
    cut() {
      open = false;
      destroyAll();
    },
    restore() {
      open = true;
    },
    blackhole() {
      silent = true;
      for (const [client, upstream] of pairs) {
        // Read and discarded from now on, in both directions, with no FIN or reset.
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.removeAllListeners('data').on('data', () => undefined);
        upstream.removeAllListeners('data').on('data', () => undefined);
      }
    },
    resume() {
      silent = false;
      for (const client of [...waiting]) {
        waiting.delete(client);
        forward(client);
        client.resume();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        open = false;
        destroyAll();
        server.close(() => resolve());
      }),
  };
};
