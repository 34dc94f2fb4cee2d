import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureDebianPackage } from './debian-postgres.js';
import { freePort } from './free-port.js';

// Debian's HAProxy in front of Flotilla processes, configured by the shipped
// deploy/haproxy-flotilla.cfg with only its addresses replaced: the listening address by a free
// loopback port, the admin socket by one of the test's, and the example servers by the test's
// processes (as many as the file names). What the documentation shows is what the test runs.

export const haproxyFile = path.resolve(
  import.meta.dirname,
  '../../../../deploy/haproxy-flotilla.cfg',
);

export type FlotillaHaproxy = {
  url: string;
  // One runtime API command (`show stat`...); resolves with its answer.
  command(line: string): Promise<string>;
  // `show stat` by proxy and server name ("flotilla/flotilla1", "flotilla/BACKEND"): its columns.
  stats(): Promise<Map<string, Record<string, string>>>;
  close(): Promise<void>;
};

const serverLine = /^(\s*server\s+\S+\s+)\S+(.*)$/;

export const flotillaHaproxyConfig = (
  shipped: string,
  port: number,
  socket: string,
  backends: readonly number[],
): string => {
  let next = 0;
  const lines = shipped.split('\n').map((line) => {
    if (/^\s*bind\s/.test(line)) return `  bind 127.0.0.1:${port}`;
    if (/^\s*stats socket\s/.test(line))
      return line.replace(/stats socket \S+/, `stats socket ${socket}`);
    const server = serverLine.exec(line);
    if (!server) return line;
    const backend = backends[next++];
    if (backend === undefined) throw new Error('deploy/haproxy-flotilla.cfg names more servers');
    return `${server[1]}127.0.0.1:${backend}${server[2]}`;
  });
  if (next !== backends.length) {
    throw new Error(`deploy/haproxy-flotilla.cfg names ${next} servers, not ${backends.length}`);
  }
  return lines.join('\n');
};

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

export const startFlotillaHaproxy = async (
  backends: readonly number[],
): Promise<FlotillaHaproxy> => {
  await ensureDebianPackage('/usr/sbin/haproxy', 'haproxy');
  const dir = await mkdtemp(path.join(tmpdir(), 'flotilla-haproxy-http-'));
  const socket = path.join(dir, 'admin.sock');
  const port = await freePort();
  const config = path.join(dir, 'haproxy.cfg');
  await writeFile(
    config,
    flotillaHaproxyConfig(await readFile(haproxyFile, 'utf8'), port, socket, backends),
  );
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
  const kill = (): void => {
    try {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  process.once('exit', kill);
  const close = async (): Promise<void> => {
    kill();
    await exited;
    process.off('exit', kill);
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
  const stats = async (): Promise<Map<string, Record<string, string>>> => {
    const [header = '', ...rows] = (await ask(socket, 'show stat')).split('\n');
    const names = header.replace(/^# /, '').split(',');
    return new Map(
      rows.map((row) => {
        const values = row.split(',');
        const record = Object.fromEntries(names.map((name, index) => [name, values[index] ?? '']));
        return [`${record.pxname}/${record.svname}`, record];
      }),
    );
  };
  return { url: `http://127.0.0.1:${port}`, command: (line) => ask(socket, line), stats, close };
};
