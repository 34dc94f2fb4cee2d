import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// A CNCF Distribution registry (Debian's `docker-registry`) run by this process, configured to
// trust the registry tokens the server signs: what `npm start` uses so that `balena deploy`, the
// builder and real devices have a registry without setting one up. Plain HTTP on loopback, which
// docker trusts as it is; a registry other machines reach needs TLS (docs/RELEASES.md).

export type EmbeddedRegistryOptions = {
  binary: string;
  // Its configuration and its storage (`<dir>/storage`).
  dir: string;
  // host:port it listens on; also its token `service`, the host of its images' locations.
  host: string;
  // Where clients it turns away get a token: the server's /auth/v1/token.
  realm: string;
  issuer: string;
  // The certificate whose key signs registry tokens.
  certificatePath: string;
  // Told when the registry stops on its own (with its last output).
  onExit: (message: string) => void;
  // How long it may take to answer before the start fails.
  readyTimeoutMs?: number;
};

export type EmbeddedRegistry = {
  host: string;
  pid(): number | undefined;
  // Everything it wrote (warnings and errors only: its log level is warn).
  output(): string;
  stop(): Promise<void>;
};

const configOf = (options: EmbeddedRegistryOptions): string =>
  [
    'version: 0.1',
    'log:',
    '  level: warn',
    'storage:',
    '  filesystem:',
    `    rootdirectory: ${join(options.dir, 'storage')}`,
    // Images are removed through the API when releases go; the registry may then drop blobs.
    '  delete:',
    '    enabled: true',
    'http:',
    `  addr: ${options.host}`,
    'auth:',
    '  token:',
    `    realm: ${options.realm}`,
    `    service: ${options.host}`,
    `    issuer: ${options.issuer}`,
    `    rootcertbundle: ${options.certificatePath}`,
    '',
  ].join('\n');

// Answers 401 (it wants a token) once it serves.
const answers = async (host: string): Promise<boolean> => {
  try {
    return (await fetch(`http://${host}/v2/`)).status === 401;
  } catch {
    return false;
  }
};

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const startEmbeddedRegistry = async (
  options: EmbeddedRegistryOptions,
): Promise<EmbeddedRegistry> => {
  await mkdir(join(options.dir, 'storage'), { recursive: true, mode: 0o700 });
  const configPath = join(options.dir, 'config.yml');
  await writeFile(configPath, configOf(options), { mode: 0o600 });
  const registry: ChildProcess = spawn(options.binary, ['serve', configPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // Bounded: a registry that logs in a loop must not grow the server's memory.
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-16_384);
  };
  registry.stdout?.on('data', keep);
  registry.stderr?.on('data', keep);
  // Told only about a registry that served and then stopped unasked; a failed start throws.
  let watching = false;
  let exitedWith: string | undefined;
  const exited = new Promise<void>((resolve) => {
    registry.once('error', (error) => {
      exitedWith = error.message;
      resolve();
    });
    registry.once('exit', (code, signal) => {
      exitedWith = `the registry exited (${String(code ?? signal)}): ${output.trim()}`;
      resolve();
    });
  });
  void exited.then(() => {
    if (watching) options.onExit(exitedWith ?? 'the registry exited');
  });
  const deadline = Date.now() + (options.readyTimeoutMs ?? 20_000);
  while (!(await answers(options.host))) {
    if (exitedWith !== undefined) throw new Error(exitedWith);
    if (Date.now() > deadline) {
      registry.kill();
      throw new Error(`the registry did not answer on ${options.host}: ${output.trim()}`);
    }
    await pause(50);
  }
  watching = true;
  return {
    host: options.host,
    pid: () => (exitedWith === undefined ? registry.pid : undefined),
    output: () => output,
    async stop() {
      watching = false;
      if (exitedWith !== undefined) return;
      registry.kill();
      await exited;
    },
  };
};
