import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { cpuMillis, rssBytes } from './proc-stats.js';
import type { Side } from './scenario.js';

// The bench's child processes: Flotilla's built server (node packages/server/dist/main.js, as in
// production), the reference server and the load generator (TypeScript, run through tsx). Every
// server gets the probe (child-probe.mjs) so the orchestrator can ask it to collect garbage
// before reading its memory from /proc.

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const benchDir = fileURLToPath(new URL('./', import.meta.url));
const probe = new URL('./child-probe.mjs', import.meta.url).href;
export const flotillaMain = `${repoRoot}packages/server/dist/main.js`;
// TypeScript children: tsx, and the workspace packages' sources (the "source" condition).
export const tsxArgs = ['--import', 'tsx', '--conditions=source'];

export type ChildServer = {
  side: Side;
  url: string;
  pid: number;
  cpuMillis(): Promise<number>;
  rssBytes(): Promise<number>;
  // Full garbage collections in the child (it runs with --expose-gc).
  collectGarbage(): Promise<void>;
  // After one full collection: the bytes the child still holds (JS heap used + external).
  liveMemoryBytes(): Promise<number>;
  stop(): Promise<void>;
  // The child's last lines of output, for error messages.
  output(): string;
};

// Sends the probe (child-probe.mjs) a message and resolves with its answer of type `answer`.
const askProbe = (
  child: ChildProcess,
  message: { type: string },
  answer: string,
): Promise<object> =>
  new Promise<object>((resolve) => {
    const listener = (received: unknown): void => {
      if (
        typeof received === 'object' &&
        received !== null &&
        'type' in received &&
        received.type === answer
      ) {
        child.off('message', listener);
        resolve(received);
      }
    };
    child.on('message', listener);
    child.send(message);
  });

export type StartServer = (side: Side, env?: Record<string, string>) => Promise<ChildServer>;

export type ServerSettings = {
  databaseUrl: string;
  jwtSecret: string;
  dataDir: string;
};

const startTimeoutMs = 60_000;

const tail = (child: ChildProcess): (() => string) => {
  const lines: string[] = [];
  const keep = (chunk: Buffer): void => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - 40));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => lines.join('\n');
};

const stopChild = async (child: ChildProcess): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
};

// Resolves with the URL the child announces (stdout line or IPC message), or rejects when it
// exits or takes too long.
const announced = (
  child: ChildProcess,
  output: () => string,
  fromStdout: RegExp,
): Promise<string> =>
  new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`server did not start within ${startTimeoutMs} ms:\n${output()}`));
    }, startTimeoutMs);
    const done = (url: string): void => {
      clearTimeout(timer);
      resolve(url.replace('//localhost:', '//127.0.0.1:'));
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      const url = fromStdout.exec(chunk.toString())?.[1];
      if (url) done(url);
    });
    child.on('message', (message: unknown) => {
      if (
        typeof message === 'object' &&
        message !== null &&
        'type' in message &&
        message.type === 'listening' &&
        'url' in message &&
        typeof message.url === 'string'
      ) {
        done(message.url);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code ?? 'a signal'} while starting:\n${output()}`));
    });
  });

const wrap = (side: Side, child: ChildProcess, url: string, output: () => string): ChildServer => {
  const pid = child.pid;
  if (pid === undefined) throw new Error('child without a pid');
  return {
    side,
    url,
    pid,
    cpuMillis: () => cpuMillis(pid),
    rssBytes: () => rssBytes(pid),
    async collectGarbage() {
      await askProbe(child, { type: 'bench:gc' }, 'bench:gc-done');
    },
    async liveMemoryBytes() {
      const answer = await askProbe(child, { type: 'bench:live-memory' }, 'bench:live-memory');
      const bytes = Reflect.get(answer, 'bytes');
      if (typeof bytes !== 'number') throw new Error('the bench probe answered no byte count');
      return bytes;
    },
    stop: () => stopChild(child),
    output,
  };
};

// BENCH_CPU_PROFILE=<dir>: Flotilla's server process and the reference server each write a V8
// CPU profile there when they stop (open it in Chrome's DevTools, or sum self time per function), to see where a
// scenario's time goes. Off by default: profiling slows the server.
const profileArgs = (): string[] => {
  const dir = process.env.BENCH_CPU_PROFILE;
  return dir ? ['--cpu-prof', '--cpu-prof-dir', dir] : [];
};

export const startServerProcess = async (
  side: Side,
  settings: ServerSettings,
  env: Record<string, string> = {},
): Promise<ChildServer> => {
  const common = { DATABASE_URL: settings.databaseUrl, ...env };
  const child =
    side === 'flotilla'
      ? fork(flotillaMain, [], {
          execArgv: ['--expose-gc', '--import', probe, ...profileArgs()],
          env: {
            ...process.env,
            PORT: '0',
            HOST: '127.0.0.1',
            FLOTILLA_DEMO: 'off',
            FLOTILLA_JWT_SECRET: settings.jwtSecret,
            FLOTILLA_DATA_DIR: settings.dataDir,
            FLOTILLA_LOG_LEVEL: 'warn',
            // The start banner goes to stdout in this format whatever the level: the bench
            // reads the URL from it, as an operator does.
            FLOTILLA_LOG_FORMAT: 'pretty',
            FLOTILLA_LOGIN_RATE_LIMIT: '1000',
            FLOTILLA_ADMIN_PASSWORD: 'bench-admin-password',
            // The webhook scenario's receiver listens on loopback.
            FLOTILLA_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1',
            ...common,
          },
          stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        })
      : fork(`${benchDir}reference-server.ts`, [], {
          execArgv: ['--expose-gc', ...tsxArgs, '--import', probe, ...profileArgs()],
          env: { ...process.env, ...common },
          stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        });
  const output = tail(child);
  try {
    const url = await announced(child, output, /Console and API\s+(http:\/\/\S+)/);
    return wrap(side, child, url, output);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
};
