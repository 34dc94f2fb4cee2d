import type { ReleaseNetwork, TargetApp, TargetRelease, TargetService } from '../target-types.js';
import { configHash } from './config-hash.js';
import {
  appUuidLabel,
  configHashLabel,
  type ManagedNetwork,
  managedLabel,
  type NetworkSpec,
} from './container-engine.js';

// The release's networks on the engine, as balena's supervisor makes them: each declared network
// is the app's own (`<app id>_<name>`), and a service that names none (and has no network_mode)
// joins the app's `default` network, where the other services reach it by its name.

export const defaultNetwork = 'default';

export const networkNameOf = (app: TargetApp, name: string): string => `${app.id ?? 0}_${name}`;

// The compose networks a service joins, with its aliases.
export const joinedNetworks = (
  service: TargetService,
): readonly { name: string; aliases?: readonly string[] }[] =>
  service.composition.networkMode === undefined
    ? (service.composition.networks ?? [{ name: defaultNetwork }])
    : [];

// A network as the release defines it; `default` is a plain bridge unless declared.
export const networkDefinition = (
  release: TargetRelease,
  name: string,
): ReleaseNetwork | undefined =>
  release.networks?.find((network) => network.name === name) ??
  (name === defaultNetwork ? { name, subnets: [] } : undefined);

// Networks a service names that the release does not declare: compose refuses those.
export const undeclaredNetworks = (release: TargetRelease, service: TargetService): string[] =>
  joinedNetworks(service)
    .map(({ name }) => name)
    .filter((name) => networkDefinition(release, name) === undefined);

// The networks the engine must have for the release: every declared one, and `default` when a
// service joins it.
export const wantedNetworks = (app: TargetApp, release: TargetRelease): NetworkSpec[] => {
  const usesDefault = release.services.some((service) =>
    joinedNetworks(service).some(({ name }) => name === defaultNetwork),
  );
  const declared = release.networks ?? [];
  const all =
    usesDefault && !declared.some(({ name }) => name === defaultNetwork)
      ? [...declared, { name: defaultNetwork, subnets: [] }]
      : declared;
  return all.map(({ name, labels, ...definition }) => ({
    name: networkNameOf(app, name),
    ...definition,
    labels: {
      ...labels,
      [managedLabel]: 'true',
      [appUuidLabel]: app.uuid,
      [configHashLabel]: configHash({ name, labels, ...definition }),
    },
  }));
};

// The wanted networks the engine has with another definition: made again.
export const staleNetworks = (
  wanted: readonly NetworkSpec[],
  existing: readonly ManagedNetwork[],
): Set<string> => {
  const hashes = new Map(existing.map((network) => [network.name, network.configHash]));
  return new Set(
    wanted
      .filter((network) => {
        const hash = hashes.get(network.name);
        return hash !== undefined && hash !== network.labels[configHashLabel];
      })
      .map((network) => network.name),
  );
};

// Whether the engine lacks a network the release declares, has one defined otherwise, or has one
// the release no longer declares.
export const networksDiffer = (
  wanted: readonly NetworkSpec[],
  existing: readonly ManagedNetwork[],
): boolean => {
  const hashes = new Map(existing.map((network) => [network.name, network.configHash]));
  return (
    existing.length !== wanted.length ||
    wanted.some((network) => hashes.get(network.name) !== network.labels[configHashLabel])
  );
};
