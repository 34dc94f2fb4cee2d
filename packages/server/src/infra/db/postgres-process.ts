import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { invocationOf, type PostgresRunner } from './postgres-runner.js';

// One run of an embedded PostgreSQL program (initdb, postgres), spawned by us: in its own
// process group, so a Ctrl-C in the terminal reaches the server, which then stops PostgreSQL
// after everything that uses it.

export type ProcessExit = { code: number | null; signal: NodeJS.Signals | null };

export type PostgresProcess = {
  pid: number;
  exited: Promise<ProcessExit>;
  // PostgreSQL's last complaints (FATAL, PANIC, ERROR lines), for the message when it dies.
  recentOutput(): string;
  // Fast shutdown (SIGINT: sessions end, a checkpoint is written), then immediate (SIGQUIT) and
  // SIGKILL if it takes too long.
  stop(): Promise<void>;
  // Sends a signal without waiting (the server process is exiting).
  signal(signal: NodeJS.Signals): void;
};

export type OutputLog = (line: string) => void;

const keptLines = 40;
// A standby says "ready to accept read-only connections".
const readyLine = /database system is ready to accept (read-only )?connections/;

export const describeExit = ({ code, signal }: ProcessExit): string =>
  signal ? `killed by ${signal}` : `exit code ${String(code)}`;

// Keeps the last lines of a stream and hands each to `onLine`.
const collectLines = (stream: Readable | null, onLine: (line: string) => void): void => {
  let pending = '';
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') onLine(line);
  });
};

const within = <T>(promise: Promise<T>, ms: number): Promise<boolean> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });

type Spawned = {
  pid: number;
  exited: Promise<ProcessExit>;
  lines: string[];
  kill(signal: NodeJS.Signals): void;
  // Rejects when the program cannot be started at all (missing unshare, say).
  failed: Promise<never>;
};

const spawnProgram = (
  runner: PostgresRunner,
  program: string,
  args: readonly string[],
  log: OutputLog,
  onLine?: (line: string) => void,
): Spawned => {
  const invocation = invocationOf(runner, program, args);
  const child = spawn(invocation.file, invocation.args, {
    uid: invocation.uid,
    gid: invocation.gid,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // English messages, whatever the machine's locale: we read the "ready" line.
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  const lines: string[] = [];
  const record = (line: string): void => {
    lines.push(line);
    if (lines.length > keptLines) lines.shift();
    log(line);
    onLine?.(line);
  };
  // Both pipes are read to the end: a full pipe would block PostgreSQL.
  collectLines(child.stdout, record);
  collectLines(child.stderr, record);
  const exited = new Promise<ProcessExit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const failed = new Promise<never>((_resolve, reject) => {
    child.once('error', (error) =>
      reject(new Error(`could not run ${invocation.file}: ${error.message}`, { cause: error })),
    );
  });
  // Observed so a spawn error is never an unhandled rejection; callers race it when they wait.
  failed.catch(() => undefined);
  return {
    pid: child.pid ?? -1,
    exited,
    lines,
    failed,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
};

// Runs a program to its end; rejects with its output when it fails.
export const runToEnd = async (
  runner: PostgresRunner,
  program: string,
  args: readonly string[],
  log: OutputLog,
): Promise<void> => {
  const run = spawnProgram(runner, program, args, log);
  const exit = await Promise.race([run.exited, run.failed]);
  if (exit.code !== 0) {
    throw new Error(
      `${program.split('/').pop() ?? program} failed (${describeExit(exit)}): ${run.lines.join('\n')}`,
    );
  }
};

export type StartOptions = {
  runner: PostgresRunner;
  postgres: string;
  pgDir: string;
  port: number;
  log: OutputLog;
  // Crash recovery of a big cluster can take a while.
  readyTimeoutMs?: number;
  // More arguments for postgres (`-c name=value` pairs).
  settings?: readonly string[];
};

// Starts the postmaster on loopback only (no Unix socket) and resolves once it accepts
// connections; rejects with its output if it exits or hangs first.
export const startPostgresProcess = async (options: StartOptions): Promise<PostgresProcess> => {
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const run = spawnProgram(
    options.runner,
    options.postgres,
    [
      '-D',
      options.pgDir,
      '-p',
      String(options.port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'lc_messages=C',
      ...(options.settings ?? []),
    ],
    options.log,
    (line) => {
      if (readyLine.test(line)) markReady();
    },
  );
  const stop = async (): Promise<void> => {
    run.kill('SIGINT');
    if (await within(run.exited, 30_000)) return;
    run.kill('SIGQUIT');
    if (await within(run.exited, 10_000)) return;
    run.kill('SIGKILL');
    await run.exited;
  };
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    ready.then(() => 'ready' as const),
    run.exited,
    run.failed,
    new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), options.readyTimeoutMs ?? 120_000);
    }),
  ]);
  clearTimeout(timer);
  if (outcome !== 'ready') {
    if (outcome === 'timeout') await stop();
    const why = outcome === 'timeout' ? 'did not become ready in time' : describeExit(outcome);
    throw new Error(`PostgreSQL did not start (${why}): ${run.lines.slice(-15).join('\n')}`);
  }
  return {
    pid: run.pid,
    exited: run.exited,
    // Its complaints only: the routine lines say nothing about why it stopped.
    recentOutput: () =>
      run.lines
        .filter((line) => /\b(FATAL|PANIC|ERROR):/.test(line))
        .slice(-5)
        .join('\n'),
    stop,
    signal: run.kill,
  };
};
