import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { isFromLoadGenerator, type LoadJob } from './load-jobs.js';
import { cpuMillis } from './proc-stats.js';
import { tsxArgs } from './processes.js';
import type { Measure, Window } from './scenario.js';

// The orchestrator's handle on the load generator process: run(job) sends a job over IPC and
// resolves with its Measure.

export type LoadGenerator = {
  pid: number;
  run(job: LoadJob, window: Window): Promise<Measure>;
  cpuMillis(): Promise<number>;
  stop(): Promise<void>;
};

const noWindow: Window = { warmupMs: 0, durationMs: 0 };

export const startLoadGenerator = async (): Promise<LoadGenerator> => {
  const child: ChildProcess = fork(
    fileURLToPath(new URL('./load-generator.ts', import.meta.url)),
    [],
    { execArgv: tsxArgs, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const pending = new Map<number, { resolve: (m: Measure) => void; reject: (e: Error) => void }>();
  let ready: () => void = () => undefined;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  child.on('message', (message: unknown) => {
    if (!isFromLoadGenerator(message)) return;
    if (message.type === 'ready') {
      ready();
      return;
    }
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (message.type === 'result') waiting?.resolve(message.measure);
    else waiting?.reject(new Error(`load generator: ${message.error}`));
  });
  child.on('exit', (code) => {
    for (const waiting of pending.values()) {
      waiting.reject(new Error(`the load generator exited (${code ?? 'signal'})`));
    }
    pending.clear();
  });
  await Promise.race([
    isReady,
    once(child, 'exit').then(() => {
      throw new Error('the load generator exited while starting');
    }),
  ]);
  const pid = child.pid;
  if (pid === undefined) throw new Error('load generator without a pid');
  let nextId = 1;
  return {
    pid,
    run(job, window = noWindow) {
      const id = nextId++;
      return new Promise<Measure>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ type: 'job', id, job, window });
      });
    },
    cpuMillis: () => cpuMillis(pid),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
};
