import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureDebianPackage } from './debian-postgres.js';
import { freePort } from './free-port.js';

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

const ask = (socket: string, line: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const client = connect(socket);
    let answer = '';
    client.setEncoding('utf8');
    client.on('data', (chunk: string) => {
      answer += chunk;
    });
    client.on('error', reject);
    client.on('end', () => resolve(answer.trim()));
    client.end(`${line}\n`);
  });

export const startHaproxy = async (
  backends: readonly PostgresBackend[],
): Promise<HaproxyForPostgres> => {
  await ensureDebianPackage('/usr/sbin/haproxy', 'haproxy');
  const dir = await mkdtemp(path.join(tmpdir(), 'flotilla-haproxy-'));
  const socket = path.join(dir, 'admin.sock');
  const port = await freePort();
  const config = path.join(dir, 'haproxy.cfg');
  await writeFile(config, haproxyConfig(port, socket, backends));
  // -db: in the foreground, so the process we spawn is HAProxy and its group ends with it.
  const child = spawn('/usr/sbin/haproxy', ['-db', '-f', config], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    output = (output + chunk).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async (): Promise<void> => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  // Ready once its runtime API answers.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await ask(socket, 'show info').catch(() => undefined);
    if (answer?.includes('Name: HAProxy')) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      await close();
      throw new Error(`HAProxy did not start: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    via(url) {
      const through = new URL(url);
      through.hostname = '127.0.0.1';
      through.port = String(port);
      return through.toString();
    },
    command: (line) => ask(socket, line),
    async switchTo(name, others) {
      await ask(socket, `set server pg/${name} state ready`);
      for (const other of others) {
        await ask(socket, `set server pg/${other} state maint`);
        await ask(socket, `shutdown sessions server pg/${other}`);
      }
    },
    close,
  };
};
