import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadRegistrySigningKey } from '../features/registry/registry-signing-key.js';
import { freePort } from './free-port.js';
import { waitFor } from './wait-for.js';

// A real CNCF distribution registry (Debian's docker-registry, which `npm test` installs when it
// is missing) configured as the README says, trusting the registry tokens of the Flotilla whose
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
  const host = options.host ?? `127.0.0.1:${await freePort()}`;
  const signing = await loadRegistrySigningKey(dataDir);
  const configPath = join(workDir, 'registry-config.yml');
  await writeFile(
    configPath,
    [
      'version: 0.1',
      'log:',
      '  level: warn',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${join(workDir, 'registry')}`,
      'http:',
      `  addr: ${host}`,
      'auth:',
      '  token:',
      `    realm: ${options.realm ?? 'http://flotilla.test/auth/v1/token'}`,
      `    service: ${host}`,
      '    issuer: flotilla',
      `    rootcertbundle: ${signing.certificatePath}`,
      '',
    ].join('\n'),
  );
  const registry: ChildProcess = spawn(registryBinary, ['serve', configPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  registry.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  registry.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<never>((_resolve, reject) => {
    registry.once('error', reject);
    registry.once('exit', (code) =>
      reject(new Error(`the registry exited (${String(code)}): ${output}`)),
    );
  });
  exited.catch(() => undefined);
  // Ready once it answers (401: it wants a token).
  await Promise.race([
    exited,
    waitFor('the registry to answer', async () => {
      try {
        return (await fetch(`http://${host}/v2/`)).status === 401;
      } catch {
        return false;
      }
    }),
  ]);
  return {
    host,
    log: () => output,
    async stop() {
      if (registry.exitCode !== null || registry.signalCode !== null) return;
      const gone = new Promise((resolve) => registry.once('exit', resolve));
      registry.kill();
      await gone;
    },
  };
};
