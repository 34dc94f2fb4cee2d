import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { type BalenaCli, balenaCli } from '../src/test-support/balena-cli.js';
import {
  type DistributionRegistry,
  startDistributionRegistry,
} from '../src/test-support/distribution-registry.js';
import { type DockerEngine, startDockerEngine } from '../src/test-support/docker-engine.js';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import { type RegisteredUser, registerUser } from './contract-helpers.js';

// What the balena-cli contract tests of releases run against, with nothing in between: a real
// dockerd (Debian's docker.io), a CNCF distribution registry trusting the server's tokens, the
// server (building on that engine when `builds` is set) and the real balena-cli 25 logged in as
// a new user.
export type CliBuildTools = {
  workDir: string;
  registry: DistributionRegistry;
  engine: DockerEngine;
  server: TestServer;
  user: RegisteredUser;
  cli: BalenaCli;
  close(): Promise<void>;
};

export const startCliBuildTools = async (
  label: string,
  { builds = false }: { builds?: boolean } = {},
): Promise<CliBuildTools> => {
  const workDir = await mkdtemp(join(tmpdir(), `flotilla-${label}-`));
  const dataDir = join(workDir, 'flotilla');
  const registry = await startDistributionRegistry(workDir, dataDir);
  const engine = await startDockerEngine();
  const server = await startTestServer({
    config: {
      dataDir,
      registry: { url: `http://${registry.host}`, host: registry.host },
      ...(builds ? { builderDockerHost: { socketPath: engine.socket } } : {}),
    },
  });
  const user = await registerUser(server.url, label);
  const cli = await balenaCli(server.url);
  await cli.run(['login', '--token', user.token]);
  return {
    workDir,
    registry,
    engine,
    server,
    user,
    cli,
    async close() {
      await server.close();
      await engine.stop();
      await registry.stop();
      await rm(workDir, { recursive: true, force: true });
    },
  };
};

// A Dockerfile project made from scratch around Debian's static busybox (nothing is pulled from
// outside), with `steps` after the shell is installed.
export const busyboxProject = async (dir: string, steps: readonly string[]): Promise<string> => {
  await mkdir(dir, { recursive: true });
  await copyFile('/bin/busybox', join(dir, 'busybox'));
  await writeFile(
    join(dir, 'Dockerfile'),
    [
      'FROM scratch',
      'COPY busybox /bin/busybox',
      'RUN ["/bin/busybox", "--install", "-s", "/bin"]',
      ...steps,
      '',
    ].join('\n'),
  );
  return dir;
};

// The images of a release, as balena-cli's release leaves them.
export const imagesOfRelease = (tools: CliBuildTools, releaseId: number) =>
  tools.user.sdk.pine.get({
    resource: 'image',
    options: {
      $select: ['content_hash', 'is_stored_at__image_location', 'status'],
      $filter: {
        release_image: {
          $any: { $alias: 'ri', $expr: { ri: { is_part_of__release: releaseId } } },
        },
      },
    },
  });

const tokenAnswer = z.object({ token: z.string() });

// The digest the registry serves for an image location and digest, to a pull token the server
// grants the tools' user; null when it serves none.
export const servedDigest = async (
  tools: CliBuildTools,
  location: string,
  digest: string,
): Promise<string | null> => {
  const { server, registry, user } = tools;
  const repository = location.slice(registry.host.length + 1);
  const answer = await fetch(
    `${server.url}/auth/v1/token?service=${encodeURIComponent(registry.host)}&scope=${encodeURIComponent(`repository:${repository}:pull`)}`,
    { headers: { authorization: `Bearer ${user.token}` } },
  );
  const { token } = tokenAnswer.parse(await answer.json());
  const manifest = await fetch(`http://${registry.host}/v2/${repository}/manifests/${digest}`, {
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/vnd.docker.distribution.manifest.v2+json',
    },
  });
  return manifest.status === 200 ? manifest.headers.get('docker-content-digest') : null;
};
