import { join } from 'node:path';
import { loadRegistrySigningKey } from '../features/registry/registry-signing-key.js';
import { startEmbeddedRegistry } from '../infra/registry/embedded-registry.js';
import { freePort } from './free-port.js';

// A real CNCF distribution registry (Debian's docker-registry, which `npm test` installs when it
// is missing) configured as docs/RELEASES.md says, trusting the registry tokens of the Flotilla whose
// data directory is `dataDir`. Without TLS: it listens on loopback, which docker trusts as is.
export type DistributionRegistry = {
  // host:port, the registry's `service` and the host of FLOTILLA_REGISTRY_URL.
  host: string;
  log(): string;
  stop(): Promise<void>;
};

const registryBinary = process.env.FLOTILLA_TEST_REGISTRY_BINARY ?? '/usr/bin/docker-registry';

export type RegistryOptions = {
  // host:port to listen on (a free loopback port by default).
  host?: string;
  // Where clients that the registry turns away get their token: Flotilla's /auth/v1/token.
  // docker pulls go there (a device's pull); balena-cli asks Flotilla itself.
  realm?: string;
};

export const startDistributionRegistry = async (
  workDir: string,
  dataDir: string,
  options: RegistryOptions = {},
): Promise<DistributionRegistry> => {
  const signing = await loadRegistrySigningKey(dataDir);
  let exit = '';
  const registry = await startEmbeddedRegistry({
    binary: registryBinary,
    dir: join(workDir, 'registry'),
    host: options.host ?? `127.0.0.1:${await freePort()}`,
    realm: options.realm ?? 'http://flotilla.test/auth/v1/token',
    issuer: 'flotilla',
    certificatePath: signing.certificatePath,
    onExit: (message) => (exit = message),
  });
  return {
    host: registry.host,
    log: () => `${registry.output()}${exit}`,
    stop: () => registry.stop(),
  };
};
