import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BalenaSDK } from 'balena-sdk';

// A release built and pushed as `balena deploy` does it, step by step through the API (the CLI's
// local compose parser is a Go binary fetched from GitHub at install, which this machine cannot
// have, so multi-service projects are deployed here by the same calls): the release and its
// images are created running, the server names each image's repository, Debian's docker CLI
// builds and pushes each service's image there with the user's token (the registry sends it to
// Flotilla's token service), and the digests and statuses are recorded. The images are made
// from scratch around Debian's static busybox.

export type EngineService = {
  name: string;
  // The shell line the service runs (its variables are expanded by busybox's sh).
  script: string;
  labels?: Record<string, string>;
  // Named volumes of the release, `<name>:<path>`.
  volumes?: readonly string[];
};

export type EngineRelease = {
  id: number;
  commit: string;
  // Each service's image: its row and where the registry holds it.
  images: Record<string, { id: number; location: string }>;
};

const docker = (dockerHost: string, config: string, args: readonly string[]): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile(
      '/usr/bin/docker',
      ['--host', dockerHost, '--config', config, ...args],
      { maxBuffer: 8 * 1024 * 1024, timeout: 120_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`docker ${args[0] ?? ''} failed: ${stdout}${stderr}`));
        else resolve(`${stdout}${stderr}`);
      },
    );
  });

export const deployEngineRelease = async (options: {
  sdk: BalenaSDK;
  fleetId: number;
  token: string;
  dockerHost: string;
  registryHost: string;
  services: readonly EngineService[];
}): Promise<EngineRelease> => {
  const { sdk, fleetId, services } = options;
  const work = await mkdtemp(join(tmpdir(), 'flotilla-engine-release-'));
  const config = join(work, 'docker-config');
  await mkdir(config);
  await docker(options.dockerHost, config, [
    'login',
    options.registryHost,
    '--username',
    'deployer',
    '--password',
    options.token,
  ]);
  const commit = randomBytes(16).toString('hex');
  const volumeNames = [
    ...new Set(
      services.flatMap((service) => service.volumes ?? []).map((line) => line.split(':')[0] ?? ''),
    ),
  ];
  const composition = {
    version: '2.1',
    services: Object.fromEntries(
      services.map((service) => [
        service.name,
        {
          build: `./${service.name}`,
          ...(service.labels ? { labels: service.labels } : {}),
          ...(service.volumes ? { volumes: [...service.volumes] } : {}),
        },
      ]),
    ),
    ...(volumeNames.length > 0
      ? { volumes: Object.fromEntries(volumeNames.map((name) => [name, {}])) }
      : {}),
  };
  const release = await sdk.pine.post({
    resource: 'release',
    body: {
      belongs_to__application: fleetId,
      commit,
      status: 'running',
      source: 'local',
      composition,
      start_timestamp: new Date().toISOString(),
    },
  });
  const images: EngineRelease['images'] = {};
  for (const service of services) {
    const [existing] = await sdk.pine.get({
      resource: 'service',
      options: { $select: ['id'], $filter: { application: fleetId, service_name: service.name } },
    });
    const serviceRow =
      existing ??
      (await sdk.pine.post({
        resource: 'service',
        body: { application: fleetId, service_name: service.name },
      }));
    const image = await sdk.pine.post({
      resource: 'image',
      body: {
        is_a_build_of__service: serviceRow.id,
        status: 'running',
        start_timestamp: new Date().toISOString(),
      },
    });
    const releaseImage = await sdk.pine.post({
      resource: 'release_image',
      body: { image: image.id, is_part_of__release: release.id },
    });
    for (const [name, value] of Object.entries(service.labels ?? {})) {
      await sdk.pine.post({
        resource: 'image_label',
        body: { release_image: releaseImage.id, label_name: name, value },
      });
    }
    const context = join(work, service.name);
    await mkdir(context);
    await copyFile('/bin/busybox', join(context, 'busybox'));
    await writeFile(
      join(context, 'Dockerfile'),
      [
        'FROM scratch',
        'COPY busybox /bin/busybox',
        'RUN ["/bin/busybox", "--install", "-s", "/bin"]',
        `CMD ["/bin/sh", "-c", ${JSON.stringify(service.script)}]`,
        '',
      ].join('\n'),
    );
    const location = image.is_stored_at__image_location;
    images[service.name] = { id: image.id, location };
    await docker(options.dockerHost, config, ['build', '--quiet', '--tag', location, context]);
    const pushed = await docker(options.dockerHost, config, ['push', location]);
    const digest = /digest: (sha256:[0-9a-f]{64})/.exec(pushed)?.[1];
    if (digest === undefined) throw new Error(`no digest in the push output: ${pushed}`);
    await sdk.pine.patch({
      resource: 'image',
      id: image.id,
      body: { content_hash: digest, status: 'success', end_timestamp: new Date().toISOString() },
    });
  }
  await sdk.pine.patch({
    resource: 'release',
    id: release.id,
    body: { status: 'success', end_timestamp: new Date().toISOString() },
  });
  return { id: release.id, commit, images };
};
