import { createHash } from 'node:crypto';
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

// What a service's container sees of the device, as balena-supervisor injects it (with the
// legacy RESIN_ names beside).
export type DeviceFacts = {
  uuid: string;
  deviceType: string;
  arch: string;
  osVersion: string;
  supervisorVersion: string;
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
// convergence's business, volumes are mounted below), without the fields the file leaves out.
const containerFields = ({
  volumes: _volumes,
  dependsOn: _dependsOn,
  ...fields
}: ServiceComposition): Partial<ContainerSpec> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

// Stable JSON (sorted keys) so equal specs hash equally.
const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(Reflect.get(value, key))}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
};

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
  // them); host paths and anonymous volumes are not mounted.
  const mounts = (volumes ?? []).flatMap((line) => {
    const [name = '', ...rest] = line.split(':');
    return release.volumes.includes(name) && rest.length > 0
      ? [[volumeNameOf(app, name), ...rest].join(':')]
      : [];
  });
  const allBinds = [...binds, ...mounts];
  const body = {
    image: service.image,
    ...(allBinds.length > 0 ? { binds: allBinds } : {}),
    // The device's variables win over nothing injected: the supervisor's names are reserved.
    environment: { ...service.environment, ...injected(app, service, device) },
    labels: { ...service.labels },
    ...composition,
  };
  const hash = createHash('sha256').update(canonical(body)).digest('hex').slice(0, 32);
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

export type UpdateStrategy = 'download-then-kill' | 'kill-then-download' | 'delete-then-download';

// The service's update strategy label; hand-over is not run yet and falls back to the default.
export const updateStrategyOf = (service: TargetService): UpdateStrategy => {
  const label = service.labels['io.balena.update.strategy'];
  return label === 'kill-then-download' || label === 'delete-then-download'
    ? label
    : 'download-then-kill';
};
