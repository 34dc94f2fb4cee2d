import type { AppReport, DeviceStatus } from './device-runtime.js';

// What the supervisor's GET /v1/device says of the fleet app, read from the state report the
// device sends (so both always agree): the running commit, and the update on its way.
export const supervisorDeviceState = (
  status: DeviceStatus,
  apps: Record<string, AppReport>,
): Record<string, unknown> => {
  const app = Object.values(apps)[0];
  const commit = app?.release_uuid ?? null;
  const pending = Object.entries(app?.releases ?? {}).find(([release]) => release !== commit)?.[1];
  const downloading = Object.values(pending?.services ?? {}).flatMap((service) =>
    service.download_progress === null ? [] : [service.download_progress],
  );
  return {
    update_pending: pending !== undefined,
    update_downloaded: pending?.update_status === 'downloaded',
    update_failed: pending?.update_status === 'aborted',
    commit,
    status,
    download_progress:
      downloading.length === 0
        ? null
        : Math.round(downloading.reduce((sum, percent) => sum + percent, 0) / downloading.length),
  };
};
