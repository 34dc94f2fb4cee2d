import type {
  ServiceComposition,
  TargetApp,
  TargetRelease,
  TargetService,
} from '../target-types.js';
import {
  appUuidLabel,
  configHashLabel,
  type ContainerSpec,
  managedLabel,
  serviceIdLabel,
  serviceNameLabel,
} from './container-engine.js';
import {
  joinedNetworks,
  networkDefinition,
  networkNameOf,
  undeclaredNetworks,
} from './app-networks.js';
import { configHash } from './config-hash.js';
import { featureGrantsOf } from './feature-labels.js';

// What a service's container sees of the device, as balena-supervisor injects it (with the
// legacy RESIN_ names beside).
export type DeviceFacts = {
  uuid: string;
  deviceType: string;
  arch: string;
  osVersion: string;
  supervisorVersion: string;
  // The engine's socket on the host, for a service with the balena-socket feature label.
  engineSocket?: string;
  // The API and the device's key, for a service with the balena-api feature label.
  api?: { url: string; key: string };
};

// Where an application takes the update lock (balena's path inside containers).
export const containerLockPath = '/tmp/balena/updates.lock';

const injected = (
  app: TargetApp,
  service: TargetService,
  device: DeviceFacts,
): Record<string, string> => {
  const values: Record<string, string> = {
    APP_ID: String(app.id ?? ''),
    APP_NAME: app.name,
    APP_UUID: app.uuid,
    SERVICE_NAME: service.name,
    DEVICE_UUID: device.uuid,
    DEVICE_TYPE: device.deviceType,
    DEVICE_ARCH: device.arch,
    HOST_OS_VERSION: device.osVersion,
    SUPERVISOR_VERSION: device.supervisorVersion,
    APP_LOCK_PATH: containerLockPath,
  };
  const env: Record<string, string> = { BALENA: '1', RESIN: '1' };
  for (const [name, value] of Object.entries(values)) {
    env[`BALENA_${name}`] = value;
    env[`RESIN_${name}`] = value;
  }
  return env;
};

// What of the composition the container itself is made with (the start order is the
// convergence's business, volumes and networks are the engine's below), without the fields the
// file leaves out.
const containerFields = ({
  volumes: _volumes,
  dependsOn: _dependsOn,
  networks: _networks,
  ...fields
}: ServiceComposition): Partial<ContainerSpec> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

// A volume line's source: a named volume, or a path of the host (`/x`, `./x`, `~/x`).
const isHostPath = (source: string): boolean => /^(\/|\.|~)/.test(source);

// Why the agent will not run a service as the release describes it: a host path in `volumes`
// (balena binds host paths only through feature labels), or a network the release does not
// declare (compose refuses it too).
export const refusalsOf = (release: TargetRelease, service: TargetService): string[] => [
  ...(service.composition.volumes ?? [])
    .filter((line) => line.includes(':') && isHostPath(line))
    .map(
      (line) =>
        `service '${service.name}' mounts the host path '${line.split(':')[0] ?? ''}': host paths are only bound through io.balena.features.* labels`,
    ),
  ...undeclaredNetworks(release, service).map(
    (name) =>
      `service '${service.name}' joins the network '${name}', which the release does not declare`,
  ),
];

// The container a target service runs in. Its name follows the supervisor's
// (`<service>_<image id>_<release id>_<commit>`); its labels let the agent find it again after a
// restart, and the hash of everything it is made of tells an unchanged service from a changed one.
export const containerSpecOf = (
  app: TargetApp,
  release: TargetRelease,
  service: TargetService,
  device: DeviceFacts,
  binds: readonly string[] = [],
): ContainerSpec => {
  const { volumes } = service.composition;
  const composition = containerFields(service.composition);
  // The release's named volumes, each the app's own (`<app id>_<name>`, as the supervisor names
  // them); anonymous volumes are not mounted, host paths are refused (refusalsOf).
  const mounts = (volumes ?? []).flatMap((line) => {
    const [name = '', ...rest] = line.split(':');
    return release.volumes.includes(name) && rest.length > 0
      ? [[volumeNameOf(app, name), ...rest].join(':')]
      : [];
  });
  const features = featureGrantsOf(service.labels, device);
  const allBinds = [...binds, ...features.binds, ...mounts];
  const joined = joinedNetworks(service);
  const networks = joined.map(({ name, aliases }) => ({
    name: networkNameOf(app, name),
    aliases: [service.name, ...(aliases ?? [])],
  }));
  const body = {
    image: service.image,
    ...(allBinds.length > 0 ? { binds: allBinds } : {}),
    ...(networks.length > 0 ? { networks } : {}),
    // The device's variables win over nothing injected: the supervisor's names are reserved.
    environment: {
      ...service.environment,
      ...features.environment,
      ...injected(app, service, device),
    },
    labels: { ...service.labels },
    ...composition,
  };
  // A network created differently (another subnet...) is a different container too.
  const hash = configHash(
    joined.length === 0
      ? body
      : { ...body, networkDefinitions: joined.map(({ name }) => networkDefinition(release, name)) },
  );
  return {
    ...body,
    name: `${service.name}_${service.imageId ?? 0}_${release.id ?? 0}_${release.commit}`,
    labels: {
      ...body.labels,
      [managedLabel]: 'true',
      [appUuidLabel]: app.uuid,
      [serviceNameLabel]: service.name,
      [serviceIdLabel]: String(service.id ?? ''),
      [configHashLabel]: hash,
    },
  };
};

// The engine's name of one of the release's named volumes.
export const volumeNameOf = (app: TargetApp, name: string): string => `${app.id ?? 0}_${name}`;

export const configHashOf = (spec: ContainerSpec): string => spec.labels[configHashLabel] ?? '';

export type UpdateStrategy =
  'download-then-kill' | 'kill-then-download' | 'delete-then-download' | 'hand-over';

const strategies: readonly UpdateStrategy[] = [
  'download-then-kill',
  'kill-then-download',
  'delete-then-download',
  'hand-over',
];

// The service's update strategy label (balena's, or resin's older name); anything else is the
// default.
export const updateStrategyOf = (service: TargetService): UpdateStrategy => {
  const label =
    service.labels['io.balena.update.strategy'] ?? service.labels['io.resin.update.strategy'];
  return strategies.find((strategy) => strategy === label) ?? 'download-then-kill';
};

// How long the old container of a hand-over may run beside the new one (balena's default: 60 s).
export const handoverTimeoutMsOf = (service: TargetService): number => {
  const label =
    service.labels['io.balena.update.handover-timeout'] ??
    service.labels['io.resin.update.handover-timeout'];
  const value = Number(label);
  return label !== undefined && Number.isInteger(value) && value >= 0 ? value : 60_000;
};
