import { clampPollInterval, pollIntervalVarNames } from './poll-interval.js';
import type {
  AppTargetV3,
  DeviceTargetV3,
  FleetTargetStateV3,
  JsonObject,
  ReleaseTargetV3,
  ServiceTargetV3,
  TargetStateV3,
} from './target-state-v3.js';

// What the server builds a target state from (its database rows, read in a fixed order so the
// body, and so its ETag, is the same on every node), and the pure functions that build it: same
// inputs, same bytes.

export type AppInputs = {
  id: number;
  uuid: string;
  name: string;
  appClass: string;
  isHost: boolean;
};

export type ServiceInputs = {
  serviceId: number;
  serviceName: string;
  imageId: number;
  image: string;
  contract: unknown;
  environment: Record<string, string>;
  labels: Record<string, string>;
};

export type ReleaseInputs = {
  id: number;
  commit: string;
  composition: JsonObject;
  services: ServiceInputs[];
};

// `isActive` false: deactivated, so no release is served and the body says so.
export type DeviceInputs = { id: number; uuid: string; name: string; isActive: boolean };

// The host OS release an active device should run (its should_be_operated_by__release) and the
// host application it belongs to.
export type HostAppInputs = { app: AppInputs; release: ReleaseInputs; version: string };

export type TargetInputs = {
  device: DeviceInputs | undefined;
  app: AppInputs;
  config: Record<string, string>;
  // The release the device should run (pinned, else the fleet's), even when none is served.
  targetReleaseId: number | null;
  release: ReleaseInputs | undefined;
  // Devices only; absent when the device is told to run no host OS release.
  hostApp?: HostAppInputs;
};

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const objectAt = (value: JsonObject, key: string): JsonObject => {
  const found = value[key];
  return isObject(found) ? found : {};
};

// The compose definition of one service in the release, when the release carries one.
export const compositionOf = (release: ReleaseInputs, serviceName: string): JsonObject =>
  objectAt(objectAt(release.composition, 'services'), serviceName);

// A device is told to poll no faster than the server assumes it does (heartbeat windows).
export const effectiveConfig = (config: Record<string, string>): Record<string, string> => {
  const result = { ...config };
  for (const name of pollIntervalVarNames) {
    const value = result[name];
    if (value === undefined) continue;
    const clamped = clampPollInterval(value);
    if (clamped !== undefined) result[name] = String(clamped);
  }
  return result;
};

const v3Service = (release: ReleaseInputs, service: ServiceInputs): ServiceTargetV3 => {
  const composition = compositionOf(release, service.serviceName);
  return {
    id: service.serviceId,
    image_id: service.imageId,
    image: service.image,
    environment: service.environment,
    labels: service.labels,
    ...(service.contract === null || service.contract === undefined
      ? {}
      : { contract: service.contract }),
    ...(Object.keys(composition).length > 0 ? { composition } : {}),
  };
};

const v3Release = (release: ReleaseInputs): ReleaseTargetV3 => ({
  id: release.id,
  services: Object.fromEntries(
    release.services.map((service) => [service.serviceName, v3Service(release, service)]),
  ),
  volumes: objectAt(release.composition, 'volumes'),
  networks: objectAt(release.composition, 'networks'),
});

const v3App = (app: AppInputs, release: ReleaseInputs | undefined): AppTargetV3 => ({
  id: app.id,
  name: app.name,
  class: app.appClass,
  is_host: app.isHost,
  releases: release ? { [release.commit]: v3Release(release) } : {},
});

// The fleet's app, then (as balena lists it) the host OS app with the release to run.
const v3Apps = (inputs: TargetInputs): Record<string, AppTargetV3> => {
  const apps = { [inputs.app.uuid]: v3App(inputs.app, inputs.release) };
  const host = inputs.hostApp;
  if (host) {
    apps[host.app.uuid] = {
      ...v3App({ ...host.app, isHost: true }, undefined),
      releases: {
        [host.release.commit]: { ...v3Release(host.release), raw_version: host.version },
      },
    };
  }
  return apps;
};

const inactive: Pick<DeviceTargetV3, 'is_active'> = { is_active: false };

// GET /device/v3/:uuid/state. A deactivated device's entry also carries `is_active: false`.
export const deviceTargetStateV3 = (inputs: TargetInputs): TargetStateV3 => {
  if (!inputs.device) throw new Error('a device target needs a device');
  const entry: DeviceTargetV3 = {
    name: inputs.device.name,
    ...(inputs.device.isActive ? {} : inactive),
    config: effectiveConfig(inputs.config),
    apps: v3Apps(inputs),
  };
  return { [inputs.device.uuid]: entry };
};

// GET /device/v3/fleet/:appUuid/state: the same app entry, without device variables.
export const fleetTargetStateV3 = (inputs: TargetInputs): FleetTargetStateV3 => ({
  [inputs.app.uuid]: {
    name: inputs.app.name,
    config: effectiveConfig(inputs.config),
    apps: { [inputs.app.uuid]: v3App(inputs.app, inputs.release) },
  },
});
