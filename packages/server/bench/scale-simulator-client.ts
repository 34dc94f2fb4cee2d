import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { z } from 'zod';
import { repoRoot, tsxArgs } from './processes.js';

// The orchestrator's side of the scale scenario's simulator process
// (packages/agent/bench/scale-simulator.ts): one question at a time, answered by type.

const callStats = z.object({
  count: z.number(),
  errors: z.number(),
  firstError: z.string().nullable(),
  p50Ms: z.number().nullable(),
  p99Ms: z.number().nullable(),
});
export type CallStats = z.infer<typeof callStats>;
const collected = z.object({
  calls: z.object({ poll: callStats, report: callStats, register: callStats, other: callStats }),
});
export type CollectedCalls = z.infer<typeof collected>['calls'];

const simulatorStatus = z.object({
  devices: z.number(),
  online: z.number(),
  failed: z.number(),
  cloudlink: z.number(),
  firstFailure: z.string().nullable(),
});
export type SimulatorStatus = z.infer<typeof simulatorStatus>;

const deviceLinks = z.object({
  devices: z.array(
    z.object({
      uuid: z.string(),
      changes: z.array(z.tuple([z.number(), z.boolean(), z.number()])),
    }),
  ),
});
// Each device's cloudlink going up (true) or down: the wall-clock time it was seen, and the
// connection attempts it had made by then.
export type DeviceLinks = z.infer<typeof deviceLinks>['devices'];

export type SimulatorFleetSpec = {
  slug: string;
  provisioningKey: string;
  count: number;
  applicationId: number;
  deviceType: string;
  deviceTypes: string[];
};

export type SimulatorStart = {
  servers: { url: string; fleets: SimulatorFleetSpec[] }[];
  pollIntervalMs: number;
  metricsIntervalMs: number;
  startSpreadMs: number;
  stateDir: string;
};

export type ScaleSimulator = {
  pid: number;
  start(options: SimulatorStart): Promise<void>;
  status(): Promise<SimulatorStatus>;
  reset(): void;
  collect(): Promise<CollectedCalls>;
  links(): Promise<DeviceLinks>;
  stop(): Promise<void>;
};

type Message = Record<string, unknown> & { type: string };
const isMessage = (value: unknown): value is Message =>
  typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string';

const file = `${repoRoot}packages/agent/bench/scale-simulator.ts`;

export const startScaleSimulator = async (): Promise<ScaleSimulator> => {
  const child: ChildProcess = fork(file, [], {
    // Ten thousand devices keep a lot of state: room beyond the default heap.
    execArgv: [...tsxArgs, '--max-old-space-size=4096'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  const next = (type: string): Promise<Message> =>
    new Promise<Message>((resolve, reject) => {
      const onMessage = (message: unknown): void => {
        if (!isMessage(message) || message.type !== type) return;
        child.off('message', onMessage);
        resolve(message);
      };
      child.on('message', onMessage);
      void exited.then(() => reject(new Error(`the scale simulator exited (waiting for ${type})`)));
    });
  await next('ready');
  const pid = child.pid;
  if (pid === undefined) throw new Error('simulator without a pid');
  return {
    pid,
    async start(options) {
      const started = next('started');
      child.send({ type: 'start', ...options });
      await started;
    },
    async status() {
      const answer = next('status');
      child.send({ type: 'status' });
      return simulatorStatus.parse(await answer);
    },
    reset() {
      child.send({ type: 'reset' });
    },
    async collect() {
      const answer = next('collected');
      child.send({ type: 'collect' });
      return collected.parse(await answer).calls;
    },
    async links() {
      const answer = next('links');
      child.send({ type: 'links' });
      return deviceLinks.parse(await answer).devices;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const stopped = next('stopped').catch(() => undefined);
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      await stopped;
      await exited;
      clearTimeout(timer);
    },
  };
};
