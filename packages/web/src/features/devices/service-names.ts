import type { ImageInstall } from '../../device/device-rows.js';

// Service id → name of the device's installed services (the log lines carry the id).
export const serviceNames = (installs: readonly ImageInstall[]): ReadonlyMap<number, string> =>
  new Map(
    installs.flatMap((install) =>
      install.installs__image.flatMap((image) =>
        image.is_a_build_of__service.map((service) => [service.id, service.service_name] as const),
      ),
    ),
  );
