import { randomBytes } from 'node:crypto';
import type { BalenaSDK } from 'balena-sdk';

// The requests balena-cli's `balena deploy` makes once its images are built (balena-cli's
// deployProject with @balena/compose's release.create, read from their public sources): the same
// calls, in the same order, through the same balena-sdk pine client. The docker push itself is
// left out; the registry token request is in the registry tests.

export type DeployOptions = {
  services: readonly string[];
  // balena.yml's version.
  semver?: string;
  // --draft: the release is created unfinalized.
  draft?: boolean;
  // The push fails: images and release end as failed.
  fail?: boolean;
};

export type Deployed = {
  release: { id: number; commit: string; status: string };
  services: Record<string, number>;
  images: Record<string, { id: number; is_stored_at__image_location: string }>;
};

const composition = (services: readonly string[]) => ({
  version: '2.1',
  services: Object.fromEntries(
    services.map((name) => [
      name,
      {
        build: { context: `./${name}` },
        labels: { 'io.balena.features.supervisor-api': '1' },
        environment: { MODE: 'production' },
      },
    ]),
  ),
});

export const deploy = async (
  sdk: BalenaSDK,
  applicationId: number,
  options: DeployOptions,
): Promise<Deployed> => {
  const pine = sdk.pine;
  const { id: userId } = await sdk.auth.getUserInfo();
  // release.create: the user and the fleet must exist and be visible.
  const [user, application] = await Promise.all([
    pine.get({ resource: 'user', id: userId, options: { $select: 'id' } }),
    pine.get({ resource: 'application', id: applicationId, options: { $select: 'id' } }),
  ]);
  if (!user || !application) throw new Error('user or fleet not found');
  const release = await pine.post({
    resource: 'release',
    body: {
      is_created_by__user: user.id,
      belongs_to__application: application.id,
      composition: composition(options.services),
      commit: randomBytes(16).toString('hex'),
      status: 'running',
      source: 'local',
      start_timestamp: new Date(),
      is_final: options.draft !== true,
      contract: { name: 'project', type: 'sw.application', version: options.semver ?? '0.0.1' },
      ...(options.semver ? { semver: options.semver } : {}),
    },
  });
  const deployed: Deployed = {
    release: { id: release.id, commit: release.commit, status: release.status },
    services: {},
    images: {},
  };
  for (const serviceName of options.services) {
    const service = await pine.getOrCreate({
      resource: 'service',
      id: { application: application.id, service_name: serviceName },
      body: { application: application.id, service_name: serviceName },
    });
    if (!service) throw new Error(`service ${serviceName} neither found nor created`);
    const image = await pine.post({
      resource: 'image',
      body: { is_a_build_of__service: service.id, status: 'running', start_timestamp: new Date() },
    });
    const releaseImage = await pine.post({
      resource: 'image__is_part_of__release',
      body: { is_part_of__release: release.id, image: image.id },
    });
    await pine.post({
      resource: 'image_label',
      body: {
        release_image: releaseImage.id,
        label_name: 'io.balena.features.supervisor-api',
        value: '1',
      },
    });
    await pine.post({
      resource: 'image_environment_variable',
      body: { release_image: releaseImage.id, name: 'MODE', value: 'production' },
    });
    deployed.services[serviceName] = service.id;
    deployed.images[serviceName] = {
      id: image.id,
      is_stored_at__image_location: image.is_stored_at__image_location,
    };
  }
  // getPreviousRepos: the image repositories of the fleet's last successful release.
  await pine.get({
    resource: 'release',
    options: {
      $select: 'id',
      $filter: { belongs_to__application: application.id, status: 'success' },
      $expand: {
        release_image: {
          $select: 'image',
          $expand: { image: { $select: 'is_stored_at__image_location' } },
        },
      },
      $orderby: { id: 'desc' },
      $top: 1,
    },
  });
  // After each push, the image; then the release.
  for (const image of Object.values(deployed.images)) {
    await pine.patch({
      resource: 'image',
      id: image.id,
      body: options.fail
        ? { status: 'failed', error_message: 'Error: connect ECONNREFUSED registry' }
        : {
            end_timestamp: new Date(),
            project_type: 'Dockerfile',
            build_log: 'Step 1/1 : FROM alpine\n',
            push_timestamp: new Date(),
            status: 'success',
            content_hash: `sha256:${randomBytes(32).toString('hex')}`,
            dockerfile: 'FROM alpine\n',
            // balena-cli sends the size as a string.
            image_size: '12345678',
          },
    });
  }
  const status = options.fail ? 'failed' : 'success';
  await pine.patch({
    resource: 'release',
    id: release.id,
    body: { status, end_timestamp: new Date() },
  });
  deployed.release.status = release.status;
  return deployed;
};
