import { startHaproxyProcess } from './haproxy-process.js';
import { throughProxy } from './proxy-process.js';

// Debian's HAProxy in front of PostgreSQL servers at one address, as in docs/FAILOVER.md: TCP
// mode, every server health-checked, sessions to a server marked down or put in maintenance cut
// at once, and the runtime API on a Unix socket to move traffic from one server to another
// (what Patroni's callbacks or an operator do at a failover).

export type PostgresBackend = { name: string; port: number; active: boolean };

export type HaproxyForPostgres = {
  port: number;
  // The same connection URL, through HAProxy.
  via(url: string): string;
  // One runtime API command (`set server pg/replica state ready`...); resolves with its answer.
  command(line: string): Promise<string>;
  // Sends the backend's traffic to `name` only: the others go to maintenance, their sessions cut.
  switchTo(name: string, others: readonly string[]): Promise<void>;
  close(): Promise<void>;
};

export const haproxyConfig = (
  port: number,
  socket: string,
  backends: readonly PostgresBackend[],
): string =>
  [
    'global',
    `  stats socket ${socket} mode 600 level admin`,
    'defaults',
    '  mode tcp',
    '  timeout connect 2s',
    // Idle pooled connections and the LISTEN connection stay open for long.
    '  timeout client 30m',
    '  timeout server 30m',
    'frontend postgres',
    `  bind 127.0.0.1:${port}`,
    '  default_backend pg',
    'backend pg',
    '  option tcp-check',
    '  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions',
    ...backends.map(
      (backend) =>
        `  server ${backend.name} 127.0.0.1:${backend.port} check${backend.active ? '' : ' disabled'}`,
    ),
    '',
  ].join('\n');

export const startHaproxy = async (
  backends: readonly PostgresBackend[],
): Promise<HaproxyForPostgres> => {
  const haproxy = await startHaproxyProcess((port, socket) =>
    haproxyConfig(port, socket, backends),
  );
  const { port, command } = haproxy;
  return {
    port,
    via: (url) => throughProxy(url, port),
    command,
    async switchTo(name, others) {
      await command(`set server pg/${name} state ready`);
      for (const other of others) {
        await command(`set server pg/${other} state maint`);
        await command(`shutdown sessions server pg/${other}`);
      }
    },
    close: haproxy.close,
  };
};
