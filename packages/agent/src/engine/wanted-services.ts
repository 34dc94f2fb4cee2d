import type { TargetApp, TargetRelease } from '../target-types.js';
import { wantedNetworks } from './app-networks.js';
import type { ContainerSpec, NetworkSpec } from './container-engine.js';
import {
  containerSpecOf,
  type DeviceFacts,
  handoverTimeoutMsOf,
  refusalsOf,
  type UpdateStrategy,
  updateStrategyOf,
} from './container-spec.js';
import { featureGrantsOf } from './feature-labels.js';
import { serviceLockBinds } from './update-locks.js';

// A service of the target release as the convergence works on it: its container's spec, whether
// it should run, how it is updated and what it starts after.
export type WantedService = {
  spec: ContainerSpec;
  running: boolean;
  serviceId: number | null;
  service: string;
  strategy: UpdateStrategy;
  // How long a hand-over waits for the new container's signal before killing the old one.
  handoverTimeoutMs: number;
  dependsOn: readonly string[];
  // Feature labels set on the service that the agent does not grant, with why.
  ignoredFeatures: readonly string[];
};

export type Wanted = {
  release: TargetRelease;
  specs: WantedService[];
  networks: NetworkSpec[];
  // Why the release cannot run here as it is (a host path in volumes...); empty when it can.
  refusals: string[];
};

// What the target app asks the engine to run, or null without a release.
export const wantedOf = (
  app: TargetApp | null | undefined,
  device: DeviceFacts,
  lockDir: string,
): Wanted | null => {
  const release = app?.release;
  if (!app || !release) return null;
  return {
    release,
    specs: release.services.map((service) => ({
      spec: containerSpecOf(app, release, service, device, serviceLockBinds(lockDir, service.name)),
      running: service.running,
      serviceId: service.id,
      service: service.name,
      strategy: updateStrategyOf(service),
      handoverTimeoutMs: handoverTimeoutMsOf(service),
      dependsOn: service.composition.dependsOn ?? [],
      ignoredFeatures: featureGrantsOf(service.labels, device).ignored,
    })),
    networks: wantedNetworks(app, release),
    refusals: release.services.flatMap((service) => refusalsOf(release, service)),
  };
};

// Services in an order that starts each after those it depends on (compose's depends_on);
// a cycle or an unknown name does not stop the others.
export const inStartOrder = (services: readonly WantedService[]): WantedService[] => {
  const byName = new Map(services.map((service) => [service.service, service]));
  const ordered: WantedService[] = [];
  const visiting = new Set<string>();
  const visit = (service: WantedService): void => {
    if (ordered.includes(service) || visiting.has(service.service)) return;
    visiting.add(service.service);
    for (const name of service.dependsOn) {
      const dependency = byName.get(name);
      if (dependency) visit(dependency);
    }
    ordered.push(service);
  };
  services.forEach(visit);
  return ordered;
};
