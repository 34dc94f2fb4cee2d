import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The line server-process-entry.ts prints once it listens: this prefix, then its base URL.
export const urlMarker = 'FLOTILLA_TEST_SERVER_URL ';

const supportDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(supportDir, '../../..');
const entryFile = path.join(supportDir, 'server-process-entry.ts');
// Kept for error messages: the end of what the child printed.
const maxOutputChars = 8_000;

export type ServerProcessOptions = {
  // The database the process serves (never an embedded one: DATABASE_URL is always set).
  databaseUrl: string;
  // FLOTILLA_JWT_SECRET (at least 32 characters): share it so one session token works on both.
  jwtSecret: string;
  // More environment variables for the server (FLOTILLA_LOG_RETENTION, ...).
  env?: Record<string, string>;
  startTimeoutMs?: number;
  stopTimeoutMs?: number;
};

export type ServerProcess = {
  // Base URL of the listening server, e.g. http://127.0.0.1:41234
  url: string;
  pid: number;
  // What the process printed so far (its last few thousand characters).
  output(): string;
  // SIGTERM, then SIGKILL if it has not exited in time; removes its data directory.
  stop(): Promise<void>;
};

const exited = (child: ChildProcess): boolean =>
  child.exitCode !== null || child.signalCode !== null;

const waitForExit = (child: ChildProcess, timeoutMs: number): Promise<boolean> =>
  new Promise((resolve) => {
    if (exited(child)) {
      resolve(true);
      return;
    }
    const timer = setTimeout(() => {
      child.off('exit', onExit);
      resolve(false);
    }, timeoutMs);
    const onExit = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
  });

// A second Flotilla server: a child Node process (tsx, workspace sources) running startServer
// on the given database, listening on a free loopback port. Resolves once it prints its URL.
export const startServerProcess = async (options: ServerProcessOptions): Promise<ServerProcess> => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-server-process-'));
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=source', entryFile], {
    cwd: repoRoot,
    env: {
      ...process.env,
      // The parent's database (e.g. CI's DATABASE_URL) must not leak in: ours is given below.
      DATABASE_URL: options.databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      FLOTILLA_DATA_DIR: dataDir,
      FLOTILLA_DEMO: 'off',
      FLOTILLA_JWT_SECRET: options.jwtSecret,
      FLOTILLA_LOGIN_RATE_LIMIT: '1000',
      FLOTILLA_LOGIN_ADDRESS_RATE_LIMIT: '1000',
      FLOTILLA_SIGNUP_RATE_LIMIT: '1000',
      FLOTILLA_LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const record = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-maxOutputChars);
  };
  child.stderr?.on('data', record);

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      if (!exited(child)) {
        child.kill('SIGTERM');
        if (!(await waitForExit(child, options.stopTimeoutMs ?? 10_000))) {
          child.kill('SIGKILL');
          await waitForExit(child, 5_000);
        }
      }
      child.stdin?.destroy();
      await rm(dataDir, { recursive: true, force: true });
    })();
    return stopped;
  };

  const startTimeoutMs = options.startTimeoutMs ?? 45_000;
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let pending = '';
      const timer = setTimeout(
        () => fail(new Error(`the server process did not start within ${startTimeoutMs} ms`)),
        startTimeoutMs,
      );
      const cleanup = (): void => {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.off('exit', onExit);
        child.off('error', fail);
      };
      function fail(error: Error): void {
        cleanup();
        reject(error);
      }
      function onExit(code: number | null, signal: NodeJS.Signals | null): void {
        fail(
          new Error(`the server process exited (code ${code}, signal ${signal}) before listening`),
        );
      }
      function onData(chunk: Buffer): void {
        record(chunk);
        pending += chunk.toString('utf8');
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        const line = lines.find((candidate) => candidate.startsWith(urlMarker));
        if (line === undefined) return;
        cleanup();
        resolve(line.slice(urlMarker.length).trim());
      }
      child.stdout?.on('data', onData);
      child.once('exit', onExit);
      child.once('error', fail);
    });
    // Later output is only kept for diagnostics.
    child.stdout?.on('data', record);
    return { url, pid: child.pid ?? -1, output: () => output, stop };
  } catch (error) {
    await stop();
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\n--- output ---\n${output}`,
      {
        cause: error,
      },
    );
  }
};
