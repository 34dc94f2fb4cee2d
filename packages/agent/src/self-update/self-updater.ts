import { compareOsVersions, parseOsVersion } from '@flotilla/shared/host-os/os-version';
import type { ApiClient } from '../api-client.js';
import type { Clock } from '../clock.js';
import { errorText, type Logger } from '../logger.js';
import type { Scheduler, TaskHandle } from '../scheduler.js';
import { readHomeState, writeHomeState } from './agent-home.js';
import { installAgentPackage } from './install-package.js';
import { parseAgentPackageRef } from './package-ref.js';

// A supervisor update in real mode updates the agent itself: it reads the supervisor release its
// device should run (should_be_managed_by__release) with that release's updater image, which
// names an agent package and its SHA-256; when the release is newer than the running agent it
// installs the package beside the running one, marks it on trial and asks its service manager
// for a restart. The launcher (launcher.ts) runs it and rolls it back if it does not report in.

export type SupervisorRelease = { version: string; updaterImage: string | null };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const first = (value: unknown): unknown => (Array.isArray(value) ? value[0] : undefined);

// `{ d: [{ should_be_managed_by__release: [{ raw_version, contains__image: [{ image: [{
// is_stored_at__image_location }] }] }] }] }`, or null when the device is told to run none.
export const supervisorReleaseOf = (body: unknown): SupervisorRelease | null => {
  const device = isRecord(body) ? first(body.d) : undefined;
  const release = isRecord(device) ? first(device.should_be_managed_by__release) : undefined;
  if (!isRecord(release) || typeof release.raw_version !== 'string') return null;
  const releaseImage = first(release.contains__image);
  const image = isRecord(releaseImage) ? first(releaseImage.image) : undefined;
  const location = isRecord(image) ? image.is_stored_at__image_location : undefined;
  return {
    version: release.raw_version,
    updaterImage: typeof location === 'string' ? location : null,
  };
};

export const supervisorReleasePath = (uuid: string): string =>
  `/v7/device?$select=id&$filter=uuid eq '${uuid}'` +
  '&$expand=should_be_managed_by__release($select=raw_version;$expand=contains__image(' +
  '$select=id;$expand=image($select=is_stored_at__image_location)))';

const newer = (target: string, running: string): boolean => {
  const wanted = parseOsVersion(target);
  const current = parseOsVersion(running);
  return wanted !== null && (current === null || compareOsVersions(wanted, current) > 0);
};

export type SelfUpdaterOptions = {
  home: string;
  apiEndpoint: string;
  // The supervisor version the running agent reports.
  runningVersion: string;
  clock: Clock;
  logger: Logger;
  // A system line in the device's log (the console shows it).
  log(message: string): void;
  // Stop the agent and exit for the service manager to start the new package.
  restart(): void;
  // A supervisor update that failed (rolled back, or not installed), for the device's state
  // report: the console shows it instead of an update that never ends.
  onFailure?(message: string): void;
  fetch?: typeof fetch;
};

export class SelfUpdater {
  readonly #options: SelfUpdaterOptions;
  // What was already said about a release that is not installed, so it is said once.
  #told = new Set<string>();
  #busy = false;

  constructor(options: SelfUpdaterOptions) {
    this.#options = options;
  }

  // At start: how the last self-update went, once, in the device's log.
  async announce(): Promise<void> {
    const state = await readHomeState(this.#options.home);
    const outcome = state.lastOutcome;
    if (outcome === null) return;
    const message =
      outcome.result === 'updated'
        ? `Supervisor updated to ${outcome.version} (Flotilla agent package)`
        : `Supervisor update to ${outcome.version} failed: ${outcome.reason ?? 'unknown reason'}; rolled back to ${this.#options.runningVersion}`;
    // Reported at every start (the release stays refused), logged once.
    if (outcome.result !== 'updated') this.#options.onFailure?.(message);
    if (outcome.announced) return;
    this.#options.log(message);
    await writeHomeState(this.#options.home, {
      ...state,
      lastOutcome: { ...outcome, announced: true },
    });
  }

  #once(key: string, message: string): void {
    if (this.#told.has(key)) return;
    this.#told.add(key);
    this.#options.log(message);
  }

  // Returns true when a new package was swapped in (the agent is restarting).
  async apply(release: SupervisorRelease | null): Promise<boolean> {
    const { home, apiEndpoint, runningVersion, logger } = this.#options;
    if (release === null || this.#busy || !newer(release.version, runningVersion)) return false;
    const ref = parseAgentPackageRef(release.updaterImage, apiEndpoint);
    if (ref === null) {
      this.#once(
        `no-package ${release.version}`,
        `Supervisor update to ${release.version} skipped: the release names no Flotilla agent package (updater image <url>#sha256=<digest>)`,
      );
      return false;
    }
    const state = await readHomeState(home);
    if (state.rejected.includes(ref.sha256)) {
      this.#once(
        `rejected ${ref.sha256}`,
        `Supervisor update to ${release.version} skipped: this package was rolled back before`,
      );
      return false;
    }
    this.#busy = true;
    try {
      this.#options.log(`Supervisor update: downloading ${release.version} from ${ref.url}`);
      const installed = await installAgentPackage(
        home,
        release.version,
        ref,
        this.#options.fetch ?? fetch,
      );
      await writeHomeState(home, {
        ...state,
        current: installed,
        previous: state.current,
        trial: { startedAt: this.#options.clock.now() },
      });
      this.#options.log(`Supervisor update: restarting into ${release.version}`);
      this.#options.restart();
      return true;
    } catch (error) {
      logger.warn(`supervisor update to ${release.version} failed: ${errorText(error)}`);
      const message = `Supervisor update to ${release.version} failed: ${errorText(error)}`;
      this.#options.onFailure?.(message);
      this.#once(`failed ${ref.sha256}`, message);
      return false;
    } finally {
      this.#busy = false;
    }
  }
}

export type SelfUpdateCheckOptions = {
  api: Pick<ApiClient, 'request'>;
  scheduler: Scheduler;
  logger: Logger;
  uuid: string;
  deviceApiKey: string;
  intervalMs: number;
  firstDelayMs: number;
  updater: SelfUpdater;
};

// Looks up the supervisor release now and then (as balenaOS's supervisor updater does).
export const startSelfUpdateCheck = (options: SelfUpdateCheckOptions): { stop(): void } => {
  let task: TaskHandle | null = null;
  let stopped = false;
  const check = async (): Promise<boolean> => {
    try {
      const response = await options.api.request({
        method: 'GET',
        path: supervisorReleasePath(options.uuid),
        token: options.deviceApiKey,
      });
      return !stopped && (await options.updater.apply(supervisorReleaseOf(response.body)));
    } catch (error) {
      options.logger.debug(`supervisor release check failed: ${errorText(error)}`);
      return false;
    }
  };
  const arm = (delayMs: number): void => {
    task = options.scheduler.after(delayMs, () => {
      void check().then((restarting) => {
        if (!stopped && !restarting) arm(options.intervalMs);
      });
    });
  };
  arm(options.firstDelayMs);
  return {
    stop() {
      stopped = true;
      task?.cancel();
    },
  };
};
