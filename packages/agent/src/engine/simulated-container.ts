import { configHashLabel, type ContainerSpec, type ManagedContainer } from './container-engine.js';
import type { SimulatedOutput } from './simulated-output.js';
import type { UpdateFault } from './update-faults.js';

// A container of the simulated engine (simulated-engine.ts), and what the engine reads of it.

export type SimulatedContainer = {
  id: string;
  spec: ContainerSpec;
  // From its labels, read once: the chatter asks for it at every line.
  service: string;
  serviceId: number | null;
  state: ManagedContainer['state'];
  exitCode: number | null;
  // When it last started, on the scheduler (its health check passes an interval later).
  startedAt: number;
  // Stopped on request: a restart policy of unless-stopped leaves it stopped at the next boot.
  stoppedOnRequest: boolean;
  output: SimulatedOutput;
  // Made for a release after the device's first one while the engine injects a fault.
  fault?: UpdateFault | undefined;
};

// The supervisor's own variables (BALENA_*, RESIN_*): the rest is the release's and the owners'.
const supervisorName = /^(BALENA|RESIN)(_|$)/;

export const releaseEnvironmentOf = (
  environment: Readonly<Record<string, string>>,
): Record<string, string> =>
  Object.fromEntries(Object.entries(environment).filter(([name]) => !supervisorName.test(name)));

// What a real engine says when a layer or a container's directory does not fit.
export const noSpace = (path: string): Error =>
  new Error(`write /var/lib/docker/${path}: no space left on device`);

export const powerLost = (): Error =>
  new Error('The container engine is not running (device powered off)');

// Whether an exited container starts again when the device boots, by its restart policy.
export const restartsAtBoot = (container: SimulatedContainer): boolean => {
  if (container.state !== 'exited') return false;
  const policy = container.spec.restart ?? 'always';
  if (policy === 'always') return true;
  if (policy === 'unless-stopped') return !container.stoppedOnRequest;
  return policy === 'on-failure' && container.exitCode !== 0;
};

// A simulated service is always well: its health check (when it has one) passes once its start
// period and an interval (the engine's default 30 s) have gone by since it started.
const healthOf = (container: SimulatedContainer, now: number): ManagedContainer['health'] => {
  if (container.fault === 'failing-check' && container.state === 'running') return 'unhealthy';
  const check = container.spec.healthcheck;
  if (!check || check.test[0] === 'NONE' || container.state !== 'running') return undefined;
  const passesAt = container.startedAt + (check.startPeriodMs ?? 0) + (check.intervalMs ?? 30_000);
  return now >= passesAt ? 'healthy' : 'starting';
};

// What `docker ps` shows of it at `now` (on the scheduler).
export const managedOf = (container: SimulatedContainer, now: number): ManagedContainer => {
  const { spec } = container;
  const health = healthOf(container, now);
  return {
    id: container.id,
    service: container.service,
    serviceId: container.serviceId,
    image: spec.image,
    configHash: spec.labels[configHashLabel] ?? '',
    // A crash-looping service never stays up: the engine shows it restarting.
    state:
      container.fault === 'crash-loop' && container.state === 'running'
        ? 'restarting'
        : container.state,
    exitCode: container.exitCode,
    ...(health === undefined ? {} : { health }),
  };
};
