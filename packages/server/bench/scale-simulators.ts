import {
  type CallStats,
  type CollectedCalls,
  type ScaleSimulator,
  type SimulatorStart,
  type SimulatorStatus,
  startScaleSimulator,
} from './scale-simulator-client.js';

// The scale scenario's devices over as many simulator processes as its servers, one each: a
// process holds a socket per device (its cloudlink) besides its HTTP slots, and this machine
// allows a process 20,000 open files (`ulimit -Hn`), so 50,000 devices need several processes on
// both sides. Answers as one simulator: counts summed, p50/p99 the highest of the processes'
// (an upper bound of the whole's), CPU summed over the processes.

// Devices one process (a server or a simulator) is given at most: room under the open-file limit
// for the HTTP slots, log uploads, database connections and files.
export const maxDevicesPerProcess = 15_000;

export type SimulatorGroup = {
  pids: number[];
  start(options: SimulatorStart): Promise<void>;
  status(): Promise<SimulatorStatus>;
  reset(): void;
  collect(): Promise<CollectedCalls>;
  stop(): Promise<void>;
};

const highest = (values: (number | null)[]): number | null => {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : Math.max(...known);
};

const merged = (stats: CallStats[]): CallStats => ({
  count: stats.reduce((total, entry) => total + entry.count, 0),
  errors: stats.reduce((total, entry) => total + entry.errors, 0),
  firstError: stats.find((entry) => entry.firstError !== null)?.firstError ?? null,
  p50Ms: highest(stats.map((entry) => entry.p50Ms)),
  p99Ms: highest(stats.map((entry) => entry.p99Ms)),
});

export const startSimulatorGroup = async (count: number): Promise<SimulatorGroup> => {
  const simulators: ScaleSimulator[] = [];
  try {
    for (let i = 0; i < count; i++) simulators.push(await startScaleSimulator());
  } catch (error) {
    await Promise.all(simulators.map((simulator) => simulator.stop()));
    throw error;
  }
  return {
    pids: simulators.map((simulator) => simulator.pid),
    // Server i's devices go to simulator i (with one simulator, every server's).
    async start(options) {
      await Promise.all(
        simulators.map((simulator, index) =>
          simulator.start({
            ...options,
            servers: options.servers.filter(
              (_server, serverIndex) => serverIndex % simulators.length === index,
            ),
            stateDir: `${options.stateDir}/simulator-${index}`,
          }),
        ),
      );
    },
    async status() {
      const all = await Promise.all(simulators.map((simulator) => simulator.status()));
      return {
        devices: all.reduce((total, entry) => total + entry.devices, 0),
        online: all.reduce((total, entry) => total + entry.online, 0),
        failed: all.reduce((total, entry) => total + entry.failed, 0),
        cloudlink: all.reduce((total, entry) => total + entry.cloudlink, 0),
        firstFailure: all.find((entry) => entry.firstFailure !== null)?.firstFailure ?? null,
      };
    },
    reset() {
      for (const simulator of simulators) simulator.reset();
    },
    async collect() {
      const all = await Promise.all(simulators.map((simulator) => simulator.collect()));
      return {
        poll: merged(all.map((calls) => calls.poll)),
        report: merged(all.map((calls) => calls.report)),
        register: merged(all.map((calls) => calls.register)),
        other: merged(all.map((calls) => calls.other)),
      };
    },
    async stop() {
      await Promise.all(simulators.map((simulator) => simulator.stop()));
    },
  };
};
