import { z } from 'zod';
import { allowedNetworks } from './allowed-networks.js';

// The image builder's settings (features/builder), spread into the server's one configuration
// schema and its Config.

// Where the builder's container engine listens: its unix socket, or host and port over plain
// HTTP (an engine on a private network of the operator's).
export type DockerHost = { socketPath: string } | { host: string; port: number };

export const parseDockerHost = (value: string): DockerHost | undefined => {
  if (value.startsWith('unix:///')) return { socketPath: value.slice('unix://'.length) };
  const tcp = /^tcp:\/\/([a-z0-9.-]+|\[[0-9a-f:]+\]):(\d{1,5})$/i.exec(value);
  const port = Number(tcp?.[2]);
  return tcp?.[1] && port >= 1 && port <= 65535 ? { host: tcp[1], port } : undefined;
};

export type BuilderConfig = {
  // Networks the builder may download project URLs from although they are private, loopback or
  // link-local (features/builder/url-address-policy.ts); empty = public addresses only.
  builderAllowedNetworks: string[];
  // The container engine that builds services with a `build:` step (features/builder); undefined:
  // the builder builds nothing and says so in the build log.
  builderDockerHost: DockerHost | undefined;
  // Whether a build's steps (RUN) reach the network; off builds with no network at all.
  builderNetwork: boolean;
  // Image builds run at once on this server; the others wait their turn (features/builder).
  builderParallel: number;
  // A build still running this long after its turn came is stopped and fails.
  builderTimeoutMs: number;
  // A built image larger than this (as the engine reports its size) is not pushed and fails.
  builderMaxImageBytes: number;
  // Whether the builder builds for a fleet of another CPU architecture than its engine's when the
  // engine's host runs that architecture's programs (QEMU user emulation): `auto` asks the engine.
  builderEmulation: boolean;
};

export const builderEnv = {
  FLOTILLA_BUILDER_ALLOWED_NETWORKS: allowedNetworks(
    () => 'must be a comma-separated list of IP addresses or CIDR ranges',
  ),
  FLOTILLA_BUILDER_DOCKER_HOST: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .trim()
      .max(1000)
      .transform((value, context) => {
        const parsed = parseDockerHost(value);
        if (parsed === undefined) {
          context.addIssue({
            code: 'custom',
            message: 'must be unix:///path/to/docker.sock or tcp://host:port',
          });
        }
        return parsed;
      })
      .optional(),
  ),
  FLOTILLA_BUILDER_NETWORK: z.enum(['on', 'off']).default('on'),
  FLOTILLA_BUILDER_PARALLEL: z.coerce.number().int().min(1).max(64).default(1),
  // At most 120: a build running longer reads as timed out (the release status rule).
  FLOTILLA_BUILDER_TIMEOUT_MINUTES: z.coerce.number().int().min(1).max(120).default(30),
  FLOTILLA_BUILDER_MAX_IMAGE_MB: z.coerce.number().int().min(1).max(1_048_576).default(8192),
  FLOTILLA_BUILDER_EMULATION: z.enum(['auto', 'off']).default('auto'),
};

type BuilderValues = z.infer<z.ZodObject<typeof builderEnv>>;

export const builderConfigOf = (values: BuilderValues): BuilderConfig => ({
  builderAllowedNetworks: values.FLOTILLA_BUILDER_ALLOWED_NETWORKS,
  builderDockerHost: values.FLOTILLA_BUILDER_DOCKER_HOST,
  builderNetwork: values.FLOTILLA_BUILDER_NETWORK === 'on',
  builderParallel: values.FLOTILLA_BUILDER_PARALLEL,
  builderTimeoutMs: values.FLOTILLA_BUILDER_TIMEOUT_MINUTES * 60_000,
  builderMaxImageBytes: values.FLOTILLA_BUILDER_MAX_IMAGE_MB * 1024 * 1024,
  builderEmulation: values.FLOTILLA_BUILDER_EMULATION === 'auto',
});
