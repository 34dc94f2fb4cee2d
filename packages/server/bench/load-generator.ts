import { runClosedLoop } from './closed-loop.js';
import { closePools, poolFor, requestSetOp } from './load-http.js';
import {
  type FromLoadGenerator,
  isToLoadGenerator,
  type LoadJob,
  type ToLoadGenerator,
} from './load-jobs.js';
import type { Measure, Window } from './scenario.js';
import { runLogStreams } from './workload-log-streams.js';
import { changingReportOp, runRolloutBurst } from './workload-changing-report.js';
import { stateReportOp } from './workload-state-report.js';
import { closeSockets, openSockets } from './workload-ws.js';

// The load generator: a process of its own (forked by load-client.ts), so its CPU is not the
// server's. It runs one job at a time, as the orchestrator asks over IPC, and answers a Measure.

const reply = (message: FromLoadGenerator): void => {
  process.send?.(message);
};

const run = (job: LoadJob, window: Window): Promise<Measure> => {
  switch (job.kind) {
    case 'requests': {
      const width = Math.max(1, ...job.sets.map((set) => set.length));
      const pool = poolFor(job.baseUrl, job.concurrency * width);
      return runClosedLoop(requestSetOp(pool, job.sets), job.concurrency, window);
    }
    case 'state-reports': {
      const pool = poolFor(job.baseUrl, job.concurrency);
      const op = job.changing ? changingReportOp : stateReportOp;
      return runClosedLoop(op(pool, job.path, job.devices), job.concurrency, window);
    }
    case 'rollout': {
      const pool = poolFor(job.baseUrl, job.concurrency);
      return runRolloutBurst(pool, job.path, job.devices, job.target, job.concurrency);
    }
    case 'log-streams':
      return runLogStreams(job, window);
    case 'ws-open':
      return openSockets(job.baseUrl, job.keys, job.uuids, job.concurrency);
    case 'ws-close':
      return closeSockets();
  }
};

// Jobs run one after another, in the order they arrive.
let queue: Promise<void> = Promise.resolve();

const handle = (message: ToLoadGenerator): void => {
  queue = queue.then(async () => {
    try {
      reply({ type: 'result', id: message.id, measure: await run(message.job, message.window) });
    } catch (error) {
      reply({
        type: 'failed',
        id: message.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
  });
};

process.on('message', (message: unknown) => {
  if (isToLoadGenerator(message)) handle(message);
});
process.on('disconnect', () => {
  void closePools().finally(() => process.exit(0));
});
reply({ type: 'ready' });
