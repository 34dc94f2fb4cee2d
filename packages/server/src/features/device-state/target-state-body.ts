import { createHash } from 'node:crypto';
import { clampPollInterval, pollIntervalVarNames } from '../heartbeat/write-device-contacts.js';
import type { TargetInputs, TargetRelease, TargetService } from './target-state-query.js';

// The target-state bodies balena-supervisor (and our agent) and the SDK read (wire contract
// sections 6 and 7.3), built from TargetInputs. Pure functions: same inputs, same bytes.

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const objectAt = (value: Json, key: string): Json => {
  const found = value[key];
  return isObject(found) ? found : {};
};

// The compose definition of one service in the release, when the release carries one.
const compositionOf = (release: TargetRelease, serviceName: string): Json =>
  objectAt(objectAt(release.composition, 'services'), serviceName);

// A device is told to poll no faster than the server assumes it does (heartbeat windows).
const effectiveConfig = (config: Record<string, string>): Record<string, string> => {
  const result = { ...config };
  for (const name of pollIntervalVarNames) {
    const value = result[name];
    if (value === undefined) continue;
    const clamped = clampPollInterval(value);
    if (clamped !== undefined) result[name] = String(clamped);
  }
  return result;
};

const v3Service = (release: TargetRelease, service: TargetService): Json => {
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

const v3Release = (release: TargetRelease): Json => ({
  id: release.id,
  services: Object.fromEntries(
    release.services.map((service) => [service.serviceName, v3Service(release, service)]),
  ),
  volumes: objectAt(release.composition, 'volumes'),
  networks: objectAt(release.composition, 'networks'),
});

const v3App = (inputs: TargetInputs): Json => ({
  id: inputs.app.id,
  name: inputs.app.name,
  class: inputs.app.appClass,
  is_host: inputs.app.isHost,
  releases: inputs.release ? { [inputs.release.commit]: v3Release(inputs.release) } : {},
});

// GET /device/v3/:uuid/state. A deactivated device's entry also carries `is_active: false`
// (issue 10): balena-supervisor reads the entry with non-exact io-ts types, so it ignores the
// extra key and just sees no release, while our agent reports the device inactive. Active
// devices' bodies (and so their ETags) are unchanged.
export const deviceTargetStateV3 = (inputs: TargetInputs): Json => {
  if (!inputs.device) throw new Error('a device target needs a device');
  return {
    [inputs.device.uuid]: {
      name: inputs.device.name,
      ...(inputs.device.isActive ? {} : { is_active: false }),
      config: effectiveConfig(inputs.config),
      apps: { [inputs.app.uuid]: v3App(inputs) },
    },
  };
};

// GET /device/v3/fleet/:appUuid/state: the same app entry, without device variables.
export const fleetTargetStateV3 = (inputs: TargetInputs): Json => ({
  [inputs.app.uuid]: {
    name: inputs.app.name,
    config: effectiveConfig(inputs.config),
    apps: { [inputs.app.uuid]: v3App(inputs) },
  },
});

// GET /device/v2/:uuid/state (the SDK's getSupervisorTargetState): apps keyed by fleet id,
// services keyed by service id with the compose fields inline, as the v2 supervisor API had it.
export const deviceTargetStateV2 = (inputs: TargetInputs): Json => {
  if (!inputs.device) throw new Error('a device target needs a device');
  const release = inputs.release;
  const app: Json = release
    ? {
        name: inputs.app.name,
        commit: release.commit,
        releaseId: release.id,
        services: Object.fromEntries(
          release.services.map((service) => [
            String(service.serviceId),
            {
              ...compositionOf(release, service.serviceName),
              imageId: service.imageId,
              serviceName: service.serviceName,
              image: service.image,
              running: true,
              environment: service.environment,
              labels: service.labels,
            },
          ]),
        ),
        volumes: objectAt(release.composition, 'volumes'),
        networks: objectAt(release.composition, 'networks'),
      }
    : { name: inputs.app.name, services: {}, volumes: {}, networks: {} };
  return {
    local: {
      name: inputs.device.name,
      config: effectiveConfig(inputs.config),
      apps: { [String(inputs.app.id)]: app },
    },
    dependent: { apps: {}, devices: {} },
  };
};

// A strong validator of the exact body bytes.
export const etagOf = (body: string): string =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

// RFC 9110 If-None-Match: a list of (possibly weak) tags, or "*".
export const matchesIfNoneMatch = (header: string | undefined, etag: string): boolean => {
  if (header === undefined) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
};
