import { createServer, type Socket, connect } from 'node:net';

// A TCP forwarder a test can cut and restore, standing between the server and PostgreSQL like a
// network that fails: cut() drops every connection and refuses new ones until restore().
export type TcpProxy = {
  // The same connection URL, through the proxy.
  via(url: string): string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
};

export const startTcpProxy = async (targetUrl: string): Promise<TcpProxy> => {
  const target = new URL(targetUrl);
  const targetPort = Number(target.port || '5432');
  const pairs = new Set<[Socket, Socket]>();
  let open = true;
  const server = createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
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
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    via(url) {
      const proxied = new URL(url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(port);
      return proxied.toString();
    },
    cut() {
      open = false;
      for (const [client, upstream] of [...pairs]) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    restore() {
      open = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        open = false;
        for (const [client, upstream] of pairs) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
};
