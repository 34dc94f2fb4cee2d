import { type ChildProcess, spawn } from 'node:child_process';

// Stands in for a service manager's Restart=always (systemd, with RestartSec=0): runs a command,
// starts it again whenever it exits, and records every exit. A test waits on what the runs print
// or on the exits themselves, never on time. It gives up after `maxStarts`, as systemd's start
// limit would, so a crash loop fails the test instead of spinning.
export type ServiceLoop = {
  // Every run's output so far, in order.
  output(): string;
  // The exit codes of the runs that ended (128 + n for a signal).
  exits(): readonly number[];
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  waitForExits(count: number, timeoutMs: number): Promise<readonly number[]>;
  // Stops the loop and the running command (SIGTERM to its process group).
  stop(): Promise<void>;
};

const maxOutputChars = 64_000;

export const startServiceLoop = (
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; maxStarts?: number },
): ServiceLoop => {
  const maxStarts = options.maxStarts ?? 10;
  let output = '';
  const exits: number[] = [];
  const waiters = new Set<() => void>();
  let child: ChildProcess | null = null;
  let stopped = false;
  let starts = 0;
  let ended: Promise<void> = Promise.resolve();
  const changed = (): void => {
    for (const waiter of [...waiters]) waiter();
  };
  const start = (): void => {
    starts++;
    output += `\n--- service start ${starts} ---\n`;
    const run = spawn(command, [...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child = run;
    const record = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-maxOutputChars);
      changed();
    };
    run.stdout?.on('data', record);
    run.stderr?.on('data', record);
    ended = new Promise((resolve) => {
      run.once('exit', (code, signal) => {
        exits.push(code ?? (signal === 'SIGKILL' ? 137 : 143));
        child = null;
        if (!stopped && starts < maxStarts) start();
        changed();
        resolve();
      });
    });
  };
  const waitFor = <T>(what: string, timeoutMs: number, check: () => T | null): Promise<T> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`timed out waiting for ${what}; exits ${exits.join(', ')}:\n${output}`));
      }, timeoutMs);
      const waiter = (): void => {
        const found = check();
        if (found === null) return;
        waiters.delete(waiter);
        clearTimeout(timer);
        resolve(found);
      };
      waiters.add(waiter);
      waiter();
    });
  start();
  return {
    output: () => output,
    exits: () => exits,
    waitForOutput: (pattern, timeoutMs) =>
      waitFor(String(pattern), timeoutMs, () => pattern.exec(output)),
    waitForExits: (count, timeoutMs) =>
      waitFor(`${count} exits`, timeoutMs, () => (exits.length >= count ? [...exits] : null)),
    stop: async () => {
      stopped = true;
      const running = child;
      if (running?.pid !== undefined && running.exitCode === null) {
        process.kill(-running.pid, 'SIGTERM');
      }
      await ended;
    },
  };
};
