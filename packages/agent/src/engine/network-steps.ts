import { staleNetworks } from './app-networks.js';
import type { ContainerEngine, ManagedContainer, ManagedNetwork } from './container-engine.js';
import type { Wanted, WantedService } from './wanted-services.js';

export type NetworkStepsContext = {
  engine: ContainerEngine;
  log(message: string): void;
  // The app's containers as last read.
  containers(): readonly ManagedContainer[];
  // Stops and removes containers (the convergence's kill, with its lines).
  kill(containers: readonly ManagedContainer[]): Promise<void>;
};

// The release's networks, before any container joins them. One the release now defines
// differently is made again, once the containers on it (all of them changed: their hash covers
// their networks' definitions) and the dropped services' are gone.
export const prepareNetworks = async (
  context: NetworkStepsContext,
  wanted: Wanted | null,
  changed: readonly WantedService[],
  existing: readonly ManagedNetwork[],
): Promise<void> => {
  const { engine, log } = context;
  const want = wanted?.networks ?? [];
  const stale = staleNetworks(want, existing);
  if (stale.size > 0) {
    const names = new Set((wanted?.specs ?? []).map(({ service }) => service));
    const users = new Set(
      changed
        .filter(({ spec }) => (spec.networks ?? []).some((network) => stale.has(network.name)))
        .map(({ service }) => service),
    );
    for (const service of users) {
      await context.kill(context.containers().filter((container) => container.service === service));
    }
    await context.kill(context.containers().filter((container) => !names.has(container.service)));
    for (const name of stale) {
      log(`Removing network '${name}'`);
      await engine.removeNetwork(name);
    }
  }
  const present = new Set(existing.map((network) => network.name));
  for (const network of want) {
    if (present.has(network.name) && !stale.has(network.name)) continue;
    log(`Creating network '${network.name}'`);
    await engine.createNetwork(network);
  }
};

// The agent's networks the target no longer has (the engine keeps one a container still uses).
export const removeUnusedNetworks = async (
  context: Pick<NetworkStepsContext, 'engine' | 'log'>,
  wanted: Wanted | null,
): Promise<void> => {
  const { engine, log } = context;
  const names = new Set((wanted?.networks ?? []).map((network) => network.name));
  for (const network of await engine.listNetworks()) {
    if (names.has(network.name)) continue;
    log(`Removing network '${network.name}'`);
    await engine.removeNetwork(network.name);
  }
};
