import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';

// A real nats-server (Debian's, installed when missing as `npm test` installs its other
// programs) on a free loopback port, in its own process group: stop() kills the group, and the
// test process kills it too when it exits without stopping it (a failed test).
export type NatsServer = {
  url: string;
  // Kills the server (an outage); start() brings it back on the same port.
  stop(): Promise<void>;
  start(): Promise<void>;
};

const binary = '/usr/sbin/nats-server';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

const ensureBinary = (): void => {
  if (existsSync(binary)) return;
  const script = path.join(root, 'scripts/ensure-debian-package.mjs');
  execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { ensureDebianPackage } from ${JSON.stringify(script)};
       ensureDebianPackage({ program: ${JSON.stringify(binary)}, pkg: 'nats-server', why: 'for the message bus tests' });`,
    ],
    { stdio: 'inherit' },
  );
};

const running = new Set<ChildProcess>();
const killGroup = (child: ChildProcess): void => {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
};
process.once('exit', () => {
  for (const child of running) killGroup(child);
});

export const startNatsServer = async (): Promise<NatsServer> => {
  ensureBinary();
  const port = await freePort();
  let child: ChildProcess | undefined;

  const start = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const started = spawn(binary, ['-a', '127.0.0.1', '-p', String(port)], {
        detached: true,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      child = started;
      running.add(started);
      let output = '';
      started.stderr?.on('data', (chunk: Buffer) => {
        if (output.includes('Server is ready')) return;
        output += chunk.toString();
        if (output.includes('Server is ready')) resolve();
      });
      started.once('exit', (code) => {
        running.delete(started);
        reject(new Error(`nats-server exited (${code ?? 'signal'}): ${output}`));
      });
    });

  const stop = async (): Promise<void> => {
    const current = child;
    child = undefined;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => current.once('exit', () => resolve()));
    killGroup(current);
    await exited;
  };

  await start();
  return { url: `nats://127.0.0.1:${port}`, stop, start };
};
