import { statusOfContainer } from '../engine/app-report.js';
import { releaseEnvironmentOf } from '../engine/simulated-container.js';
import type { SimulatedEngine } from '../engine/simulated-engine.js';
import type { TargetService } from '../target-types.js';
import type { ServiceStatus } from './device-runtime.js';

// A service of a simulated device as its shell, checks, diagnostics and metrics see it: its
// container as the engine has it.
export type SimulatedService = {
  name: string;
  serviceId: number | null;
  status: ServiceStatus;
  // The target release runs it (a stopped one is a failing health check).
  wantsRunning: boolean;
  // The variables it runs with, the supervisor's own left out.
  environment: Readonly<Record<string, string>>;
};

// The engine's containers, in the target release's order of services.
export const simulatedServices = (
  engine: SimulatedEngine,
  targets: readonly TargetService[],
): SimulatedService[] => {
  const order = (name: string): number => {
    const index = targets.findIndex((target) => target.name === name);
    return index === -1 ? targets.length : index;
  };
  return engine
    .inspectAll()
    .map(({ container, spec }) => ({
      name: container.service,
      serviceId: container.serviceId,
      status: statusOfContainer(container),
      wantsRunning: targets.find((target) => target.name === container.service)?.running ?? false,
      environment: releaseEnvironmentOf(spec.environment),
    }))
    .sort((a, b) => order(a.name) - order(b.name));
};
