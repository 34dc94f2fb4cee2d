import { mkdtemp, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureDebianPackage } from './debian-postgres.js';
import { freePort } from './free-port.js';
import { startProxyProcess } from './proxy-process.js';

// Debian's HAProxy as a test runs it (installed with apt when missing): a config the caller
// writes for a free loopback port and an admin socket of the test's, in the foreground (-db) in
// a process group of its own, killed with the test process at the latest; ready once its runtime
// API answers.

export type HaproxyProcess = {
  port: number;
  // One runtime API command (`show stat`, `set server ...`); resolves with its answer.
  command(line: string): Promise<string>;
  close(): Promise<void>;
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

export const startHaproxyProcess = async (
  configOf: (port: number, socket: string) => string,
): Promise<HaproxyProcess> => {
  await ensureDebianPackage('/usr/sbin/haproxy', 'haproxy');
  const dir = await mkdtemp(path.join(tmpdir(), 'flotilla-haproxy-'));
  const socket = path.join(dir, 'admin.sock');
  const port = await freePort();
  const config = path.join(dir, 'haproxy.cfg');
  await writeFile(config, configOf(port, socket));
  const { close } = await startProxyProcess({
    name: 'HAProxy',
    file: '/usr/sbin/haproxy',
    args: ['-db', '-f', config],
    dir,
    ready: async () => (await ask(socket, 'show info')).includes('Name: HAProxy'),
  });
  return { port, command: (line) => ask(socket, line), close };
};
