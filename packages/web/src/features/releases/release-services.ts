import type { ReleaseDetail } from './api-releases.js';

// The release's services, each with its image, by service name.
export const releaseServices = (release: ReleaseDetail) =>
  release.release_image
    .flatMap((part) => part.image)
    .map((image) => ({
      name: image.is_a_build_of__service[0]?.service_name ?? `image ${image.id}`,
      image,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));

export type ReleaseService = ReturnType<typeof releaseServices>[number];
