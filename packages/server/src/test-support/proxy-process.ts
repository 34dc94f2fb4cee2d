import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';

// A program a test runs in front of its servers (HAProxy, PgBouncer): in the foreground in a
// process group of its own, killed with the test process at the latest, its working directory
// deleted on close; started once `ready` says so, or an error with its last output.

export type ProxyProgram = {
  // For messages: "HAProxy", "PgBouncer".
  name: string;
  file: string;
  args: readonly string[];
  // Run as this user (a program that refuses root).
  uid?: number;
  gid?: number;
  // The temporary directory of its configuration, deleted on close.
  dir: string;
  ready(): Promise<boolean>;
};

export const startProxyProcess = async (
  program: ProxyProgram,
): Promise<{ close(): Promise<void> }> => {
  const child = spawn(program.file, [...program.args], {
    uid: program.uid,
    gid: program.gid,
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
    await rm(program.dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (await program.ready().catch(() => false)) return { close };
    if (Date.now() > deadline || child.exitCode !== null) {
      await close();
      throw new Error(`${program.name} did not start: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

// `url` with its host and port replaced by the proxy's on loopback.
export const throughProxy = (url: string, port: number): string => {
  const through = new URL(url);
  through.hostname = '127.0.0.1';
  through.port = String(port);
  return through.toString();
};
