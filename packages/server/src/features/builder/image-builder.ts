import type { Config } from '../../infra/config/config.js';
import {
  loadRegistrySigningKey,
  type RegistrySigningKey,
} from '../registry/registry-signing-key.js';
import { signRegistryToken } from '../registry/registry-token.js';
import type { BuildBackend } from './build-backend.js';
import { dockerBuildBackend } from './docker-build-backend.js';

// The builder's means to build: a container engine, and the registry its images are pushed to
// with a token the server signs for itself.
export type ImageBuilder = {
  backend: BuildBackend;
  // Whether builds reach the network (FLOTILLA_BUILDER_NETWORK).
  network: boolean;
  // Whether it builds for other CPU architectures through emulation (FLOTILLA_BUILDER_EMULATION).
  emulation: boolean;
  // A token granting push and pull on exactly the repository of `location`, for the engine.
  pushToken(location: string, now: Date): Promise<string>;
};

export type ImageBuilderAvailability = { builder: ImageBuilder } | { unavailable: string };

export const noEngineReason =
  "no container engine is configured (FLOTILLA_BUILDER_DOCKER_HOST): build it with 'balena deploy' on a machine with Docker, or push it to a registry and reference it with 'image:'";

export const noRegistryReason =
  "no registry is configured to push images to (FLOTILLA_REGISTRY_URL): build it with 'balena deploy', or push it to a registry and reference it with 'image:'";

const builders = new WeakMap<Config, ImageBuilderAvailability>();

const createImageBuilder = (config: Config): ImageBuilderAvailability => {
  if (config.builderDockerHost === undefined) return { unavailable: noEngineReason };
  const registry = config.registry;
  if (registry === undefined) return { unavailable: noRegistryReason };
  let signingKey: Promise<RegistrySigningKey> | undefined;
  const keyOf = (): Promise<RegistrySigningKey> => {
    signingKey ??= loadRegistrySigningKey(config.dataDir).catch((error: unknown) => {
      signingKey = undefined;
      throw error;
    });
    return signingKey;
  };
  return {
    builder: {
      backend: dockerBuildBackend(config.builderDockerHost),
      network: config.builderNetwork,
      emulation: config.builderEmulation,
      async pushToken(location, now) {
        const answer = await signRegistryToken(await keyOf(), {
          issuer: config.registryTokenIssuer,
          audience: registry.host,
          subject: 'flotilla-builder',
          access: [
            {
              type: 'repository',
              name: location.slice(registry.host.length + 1),
              actions: ['pull', 'push'],
            },
          ],
          now,
        });
        return answer.token;
      },
    },
  };
};

// One per configuration (so per app), made when the first build needs it.
export const imageBuilderOf = (config: Config): ImageBuilderAvailability => {
  let availability = builders.get(config);
  if (availability === undefined) {
    availability = createImageBuilder(config);
    builders.set(config, availability);
  }
  return availability;
};
