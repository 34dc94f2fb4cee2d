import { randomBytes } from 'node:crypto';
import type { ApiUser } from './api-setup.js';

// A successful release of the given services, made through the API as a builder would leave
// it (release, services, images, release images), and set as the fleet's target: this pins the
// fleet (it no longer tracks its latest release; patch should_track_latest_release to undo).
export const createRelease = async (
  owner: ApiUser,
  fleetId: number,
  services: readonly string[],
): Promise<{ id: number; commit: string; serviceIds: Record<string, number> }> => {
  const post = <T>(resource: string, body: Record<string, unknown>) =>
    owner.client.request<T>({ method: 'POST', path: `/v7/${resource}`, body });
  const commit = randomBytes(16).toString('hex');
  const release = await post<{ id: number }>('release', {
    belongs_to__application: fleetId,
    commit,
    status: 'success',
    source: 'cloud',
    composition: {
      version: '2.1',
      services: Object.fromEntries(services.map((name) => [name, { build: `./${name}` }])),
    },
  });
  const serviceIds: Record<string, number> = {};
  for (const name of services) {
    // A service is the fleet's, shared by its releases: the second release reuses it.
    const [existing] = await owner.client.pine.get({
      resource: 'service',
      options: { $select: ['id'], $filter: { application: fleetId, service_name: name } },
    });
    const service =
      existing ??
      (await post<{ id: number }>('service', { application: fleetId, service_name: name }));
    serviceIds[name] = service.id;
    const image = await post<{ id: number }>('image', {
      is_a_build_of__service: service.id,
      content_hash: `sha256:${randomBytes(32).toString('hex')}`,
      status: 'success',
    });
    await post('release_image', { image: image.id, is_part_of__release: release.id });
  }
  await owner.client.pine.patch({
    resource: 'application',
    id: fleetId,
    body: { should_be_running__release: release.id },
  });
  return { id: release.id, commit, serviceIds };
};
