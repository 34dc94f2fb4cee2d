import path from 'node:path';
import { access, constants } from 'node:fs/promises';
import type { Config } from '../../infra/config/config.js';
import {
  type EmbeddedRegistry,
  startEmbeddedRegistry,
} from '../../infra/registry/embedded-registry.js';
import { loadRegistrySigningKey } from './registry-signing-key.js';

// Where a registry on this machine sends clients for a token: the server itself, over loopback
// when it listens on every address.
const realmOf = (config: Config): string => {
  const wildcard = ['0.0.0.0', '::', '127.0.0.1', 'localhost', '::1'].includes(config.host);
  const host = wildcard
    ? '127.0.0.1'
    : config.host.includes(':')
      ? `[${config.host}]`
      : config.host;
  return `http://${host}:${config.port}/auth/v1/token`;
};

export type RegistryStart = {
  // The configuration the server runs with: FLOTILLA_REGISTRY_URL's place taken by the embedded
  // registry when it runs.
  config: Config;
  registry: EmbeddedRegistry | undefined;
};

// Starts the embedded registry when it is asked for (FLOTILLA_EMBEDDED_REGISTRY): `auto` goes on
// without one (saying why) when its binary is missing or the server's port is not fixed, `on`
// fails the start instead.
export const startRegistryIfEmbedded = async (
  config: Config,
  print: (line: string) => void,
  warn: (line: string) => void,
): Promise<RegistryStart> => {
  const wanted = config.embeddedRegistry;
  if (wanted === undefined) return { config, registry: undefined };
  const refuse = (reason: string): RegistryStart => {
    if (wanted.mode === 'on') throw new Error(`Cannot start the embedded registry: ${reason}`);
    print(`No image registry: ${reason}`);
    return { config, registry: undefined };
  };
  try {
    await access(wanted.binary, constants.X_OK);
  } catch {
    return refuse(
      `${wanted.binary} is missing (Debian: apt-get install docker-registry), so releases cannot be pushed or pulled`,
    );
  }
  if (config.port === 0) {
    return refuse('it needs a fixed PORT, since image locations keep the registry address');
  }
  const signing = await loadRegistrySigningKey(config.dataDir);
  const host = `127.0.0.1:${wanted.port}`;
  const registry = await startEmbeddedRegistry({
    binary: wanted.binary,
    dir: path.join(config.dataDir, 'registry'),
    host,
    realm: realmOf(config),
    issuer: config.registryTokenIssuer,
    certificatePath: signing.certificatePath,
    onExit: (message) => warn(`The embedded registry stopped: ${message}`),
  });
  print(
    `Started the embedded image registry on ${host} (data in ${path.join(config.dataDir, 'registry')})`,
  );
  return { config: { ...config, registry: { url: `http://${host}`, host } }, registry };
};
