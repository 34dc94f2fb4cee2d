import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { z } from 'zod';
import { loadRegistrySigningKey } from '../src/features/registry/registry-signing-key.js';
import { signRegistryToken } from '../src/features/registry/registry-token.js';
import { type DockerEngine, startDockerEngine } from '../src/test-support/docker-engine.js';
import {
  type DistributionRegistry,
  startDistributionRegistry,
} from '../src/test-support/distribution-registry.js';
import { projectTarball } from '../src/test-support/project-tarball.js';
import type { ChildServer } from './processes.js';
import type { BenchEnv } from './scenario.js';

// The image-build scenario's world: a private dockerd and a distribution registry, a Flotilla
// server whose builder uses them, and a fleet of this machine's architecture. One build is a
// two-service project from scratch around Debian's static busybox (a few RUN and COPY steps),
// built and pushed either by Flotilla's builder (the upload route, as the console sends it) or
// by Debian's docker CLI straight on the same engine (`docker build`, `docker push`, then the tag
// removed, as the builder does). Every build starts with a fresh file, so no step comes from the
// engine's cache on either side.

const run = promisify(execFile);
const dockerCli = '/usr/bin/docker';
const services = ['web', 'worker'] as const;

const buildAnswer = z.looseObject({
  status: z.string().optional(),
  log: z.array(z.string()).optional(),
});

export type BuildBench = {
  // Wall milliseconds of one build of the project, both services built and pushed.
  build(side: 'flotilla' | 'reference'): Promise<number>;
  stop(): Promise<void>;
};

const dockerfile = (service: string): string =>
  [
    'FROM scratch',
    'COPY nonce /nonce',
    'COPY busybox /bin/busybox',
    'RUN ["/bin/busybox", "--install", "-s", "/bin"]',
    `RUN mkdir -p /app && echo ${service} > /app/name`,
    'COPY app.txt /app/',
    'RUN wc -c /app/app.txt > /app/size && cat /app/size',
    'ENV APP=/app',
    '',
  ].join('\n');

const projectFiles = (busybox: Buffer, nonce: string): Record<string, string | Buffer> => ({
  'docker-compose.yml': `services:\n${services.map((name) => `  ${name}:\n    build: ./${name}\n`).join('')}`,
  ...Object.fromEntries(
    services.flatMap((name) => [
      [`${name}/Dockerfile`, dockerfile(name)],
      [`${name}/busybox`, busybox],
      [`${name}/nonce`, nonce],
      [`${name}/app.txt`, `${name} `.repeat(4096)],
    ]),
  ),
});

// Why the scenario cannot run here, or undefined.
const missing = (): string | undefined =>
  ['/usr/sbin/dockerd', '/usr/bin/docker-registry', dockerCli, '/bin/busybox'].find(
    (file) => !existsSync(file),
  );

export const startBuildBench = async (env: BenchEnv): Promise<BuildBench | string> => {
  const absent = missing();
  if (absent !== undefined)
    return `${absent} is missing (Debian's docker.io, docker-registry, busybox-static)`;
  const workDir = await mkdtemp(path.join(tmpdir(), 'flotilla-bench-build-'));
  const stops: (() => Promise<void>)[] = [() => rm(workDir, { recursive: true, force: true })];
  const stop = async (): Promise<void> => {
    for (const step of stops.reverse()) await step().catch(() => undefined);
  };
  let engine: DockerEngine;
  try {
    engine = await startDockerEngine();
  } catch (error) {
    await stop();
    return `dockerd could not be started: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
  stops.push(() => engine.stop());
  try {
    const registry: DistributionRegistry = await startDistributionRegistry(workDir, env.dataDir);
    stops.push(() => registry.stop());
    const server: ChildServer = await env.startServer('flotilla', {
      FLOTILLA_BUILDER_DOCKER_HOST: engine.dockerHost,
      FLOTILLA_REGISTRY_URL: `http://${registry.host}`,
      FLOTILLA_BUILDER_NETWORK: 'off',
    });
    stops.push(() => server.stop());
    const fleetId = await createFleet(env);
    const busybox = await readFile('/bin/busybox');
    const dockerConfig = path.join(workDir, 'docker-config');
    await mkdir(dockerConfig);
    const reference = await referenceProject(workDir, busybox);
    const docker = (args: string[]) =>
      run(dockerCli, args, {
        env: {
          ...process.env,
          DOCKER_HOST: engine.dockerHost,
          DOCKER_CONFIG: dockerConfig,
          DOCKER_BUILDKIT: '0',
        },
        maxBuffer: 16 * 1024 * 1024,
      });
    // The docker CLI pushes with a registry token of the server's key for its repositories.
    const signing = await loadRegistrySigningKey(env.dataDir);
    const authorize = async (): Promise<void> => {
      const { token } = await signRegistryToken(signing, {
        issuer: 'flotilla',
        audience: registry.host,
        subject: 'bench',
        access: services.map((name) => ({
          type: 'repository',
          name: `reference/${name}`,
          actions: ['pull', 'push'],
        })),
        now: new Date(),
      });
      await writeFile(
        path.join(dockerConfig, 'config.json'),
        JSON.stringify({ auths: { [registry.host]: { registrytoken: token } } }),
      );
    };
    return {
      async build(side) {
        const nonce = randomUUID();
        if (side === 'flotilla') {
          const payload = await projectTarball(projectFiles(busybox, nonce), {
            executables: services.map((name) => `${name}/busybox`),
          });
          const began = performance.now();
          const response = await fetch(
            `${server.url}/builder/v1/applications/${fleetId}/releases`,
            {
              method: 'POST',
              headers: {
                authorization: `Bearer ${env.tokens.admin}`,
                'content-type': 'application/gzip',
              },
              body: payload,
            },
          );
          const answer = buildAnswer.parse(await response.json());
          const ms = performance.now() - began;
          if (response.status !== 201 || answer.status !== 'success') {
            throw new Error(
              `Flotilla's build failed (${response.status}): ${(answer.log ?? []).slice(-5).join(' | ')}`,
            );
          }
          return ms;
        }
        for (const name of services) await writeFile(path.join(reference, name, 'nonce'), nonce);
        await authorize();
        const began = performance.now();
        for (const name of services) {
          const tag = `${registry.host}/reference/${name}`;
          await docker([
            'build',
            '--quiet',
            '--network',
            'none',
            '-t',
            tag,
            path.join(reference, name),
          ]);
          await docker(['push', '--quiet', tag]);
          await docker(['rmi', '--no-prune', tag]);
        }
        return performance.now() - began;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
};

// The project's folders on disk, as `docker build` reads a context.
const referenceProject = async (workDir: string, busybox: Buffer): Promise<string> => {
  const dir = path.join(workDir, 'reference');
  for (const [name, content] of Object.entries(projectFiles(busybox, ''))) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
    if (name.endsWith('busybox')) await chmod(path.join(dir, name), 0o755);
  }
  return dir;
};

// A fleet of this machine's CPU architecture (the engine builds natively) in the organization of
// the first seeded fleet, which the seeded administrator administers.
const createFleet = async (env: BenchEnv): Promise<number> => {
  const first = env.seed.fleets[0];
  if (first === undefined) throw new Error('the seed has no fleet');
  const name = `benchbuild${randomBytes(4).toString('hex')}`;
  const { rows } = await env.db.query<{ id: number }>(
    `WITH "new_actor" AS (INSERT INTO "actor" DEFAULT VALUES RETURNING "id")
     INSERT INTO "application" ("app_name", "slug", "uuid", "organization", "actor", "is_for__device_type")
     SELECT $2, 'bench/' || $2, $3, a."organization", na."id", dt."id"
       FROM "application" a, "new_actor" na, "device_type" dt
      WHERE a."id" = $1 AND dt."slug" = $4
     RETURNING "id"`,
    [
      first.id,
      name,
      randomBytes(16).toString('hex'),
      process.arch === 'arm64' ? 'raspberrypi4-64' : 'generic-amd64',
    ],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('the bench fleet could not be created');
  return id;
};
