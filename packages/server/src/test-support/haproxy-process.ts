import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureDebianPackage } from './debian-postgres.js';
import { freePort } from './free-port.js';

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
  return { port, command: (line) => ask(socket, line), close };
};
