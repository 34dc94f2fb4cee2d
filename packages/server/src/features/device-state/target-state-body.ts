import { createHash } from 'node:crypto';
import {
  compositionOf,
  effectiveConfig,
  objectAt,
  type TargetInputs,
} from '@flotilla/shared/device-protocol/target-state-v3-build';

// The SDK's v2 target-state body and the ETags of target-state bodies. The v3 bodies devices
// poll are built by the device protocol (shared/device-protocol/target-state-v3-build.ts).

type Json = Record<string, unknown>;

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
  // What a device sends back is the tag it was served (etagOf: no comma, space or W/), compared
  // without splitting the header.
  if (header === etag) return true;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
};
