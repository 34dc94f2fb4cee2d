import type {
  AppReport,
  DeviceStatus,
  ReleaseReport,
  ServiceReport,
  ServiceStatus,
} from '../runtime/device-runtime.js';
import type { UpdateStatus } from '@flotilla/shared/device-protocol/state-report-v3';
import type { ManagedContainer } from './container-engine.js';
import { configHashOf } from './container-spec.js';
import type { Wanted } from './wanted-services.js';

// The supervisor's status words, from the engine's state. The state report has no health field:
// a running container whose health check fails is reported `Unhealthy` (one that passes, or has
// not decided yet, is `Running`, as the supervisor says), so the console shows it.
export const statusOfContainer = (container: ManagedContainer): ServiceStatus => {
  switch (container.state) {
    case 'running':
      return container.health === 'unhealthy' ? 'Unhealthy' : 'Running';
    case 'created':
      return 'Installed';
    case 'restarting':
      return 'Starting';
    case 'paused':
    case 'removing':
      return 'Stopping';
    default:
      return 'exited';
  }
};

export type AppState = {
  appUuid: string;
  wanted: Wanted | null;
  // The commit whose services run as the target said, once they do.
  applied: string | null;
  containers: readonly ManagedContainer[];
  // Download progress (0-100) by image reference.
  downloads: ReadonlyMap<string, number>;
  status: DeviceStatus;
  updateStatus: UpdateStatus | null;
};

// The target's services: each as its container says once it has the target's, or on its way.
const pendingServices = (state: AppState, wanted: Wanted): Record<string, ServiceReport> => {
  const services: Record<string, ServiceReport> = {};
  for (const { spec, service } of wanted.specs) {
    const container = state.containers.find(
      (found) => found.service === service && found.configHash === configHashOf(spec),
    );
    const progress = state.downloads.get(spec.image);
    services[service] = container
      ? { image: spec.image, status: statusOfContainer(container), download_progress: null }
      : progress !== undefined
        ? { image: spec.image, status: 'Downloading', download_progress: progress }
        : {
            image: spec.image,
            status: state.status === 'Installing' ? 'Installing' : 'Downloaded',
            download_progress: null,
          };
  }
  return services;
};

// The containers as they are, by service (the release that runs).
const runningServices = (state: AppState): Record<string, ServiceReport> =>
  Object.fromEntries(
    state.containers.map((container) => [
      container.service,
      { image: container.image, status: statusOfContainer(container), download_progress: null },
    ]),
  );

// The release that runs, and the target's while it is on its way (downloading, waiting for the
// lock, applying, or failed): the device page shows both, as the supervisor reports them.
export const appReport = (state: AppState): Record<string, AppReport> => {
  const { wanted, applied } = state;
  const releases: Record<string, ReleaseReport> = {};
  const pending = wanted !== null && wanted.release.commit !== applied;
  if (applied !== null) {
    releases[applied] = {
      services: runningServices(state),
      ...(pending ? {} : { update_status: 'done' }),
    };
  }
  if (pending) {
    releases[wanted.release.commit] = {
      update_status: state.updateStatus ?? 'downloading',
      services: pendingServices(state, wanted),
    };
  }
  return {
    [state.appUuid]: { releases, ...(applied === null ? {} : { release_uuid: applied }) },
  };
};
