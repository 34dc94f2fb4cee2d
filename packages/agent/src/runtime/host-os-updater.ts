import { osUpdateMessages } from '@flotilla/shared/host-os/os-update-eligibility';
import { compareOsVersions, parseOsVersion } from '@flotilla/shared/host-os/os-version';
import { errorText } from '../logger.js';
import type { HostOsTarget } from '../target-types.js';

// Real mode's host OS update: told (through its target state) to run a newer host OS release,
// the agent runs that release's updater image, when the operator allowed it in config.json
// (flotilla.hostOsUpdates). The updater reports its steps on stdout and its failure on stderr;
// once it succeeds the agent reboots the machine into the new OS. docs/HOST-OS.md ("Real
// devices") is the updater's contract. Every step lands in provisioning_state and
// provisioning_progress, as balenaOS's updater reports them.

export const notSupportedReason = osUpdateMessages.hostNotSupported;

// Where the host's root is mounted in the updater, and the line prefix of its progress reports.
export const updaterHostRoot = '/host';
export const progressPrefix = 'FLOTILLA_PROGRESS';

export type UpdaterRun = {
  image: string;
  environment: Readonly<Record<string, string>>;
  // Bind mounts (`<host path>:<container path>`).
  binds: readonly string[];
};

// Pulls the image and runs it to completion with full access to the host (privileged, the
// host's network and PID namespace); resolves with its exit code.
export type UpdaterEngine = {
  pull(image: string, onProgress: (percent: number) => void): Promise<void>;
  run(spec: UpdaterRun, onLine: (line: string, isStdErr: boolean) => void): Promise<number>;
};

export type HostOsUpdaterOptions = {
  enabled: boolean;
  // Null when the machine has no container engine.
  engine: UpdaterEngine | null;
  device: { uuid: string; deviceType: string };
  osVersion(): string;
};

// The device the updater reports through (connected when the device starts).
export type OsUpdaterHooks = {
  log(message: string): void;
  changed(): void;
  // Reboot the machine into the new OS (the configured reboot command).
  reboot(): void;
};

const unconnected: OsUpdaterHooks = {
  log: () => undefined,
  changed: () => undefined,
  reboot: () => undefined,
};

export type OsUpdateState = {
  provisioning_state: string | null;
  provisioning_progress: number | null;
};

const bareVersion = (osVersion: string): string => osVersion.replace(/^balenaOS\s+/i, '');

const newer = (target: string, running: string): boolean => {
  const wanted = parseOsVersion(target);
  const current = parseOsVersion(running);
  return wanted !== null && (current === null || compareOsVersions(wanted, current) > 0);
};

// "FLOTILLA_PROGRESS 40 writing the root filesystem" → 40 and the step.
const progressOf = (line: string): { percent: number; step: string } | null => {
  const match = new RegExp(`^${progressPrefix}\\s+(\\d{1,3})(?:\\s+(.*))?$`).exec(line.trim());
  if (!match?.[1]) return null;
  return { percent: Math.min(100, Number(match[1])), step: match[2]?.trim() ?? '' };
};

export class HostOsUpdater {
  readonly #options: HostOsUpdaterOptions;
  #state: OsUpdateState = { provisioning_state: null, provisioning_progress: null };
  #running: string | null = null;
  // Versions that failed (or cannot run here): not tried again until the agent restarts.
  #failed = new Set<string>();
  #work: Promise<void> = Promise.resolve();
  #hooks: OsUpdaterHooks = unconnected;

  constructor(options: HostOsUpdaterOptions) {
    this.#options = options;
  }

  connect(hooks: OsUpdaterHooks): void {
    this.#hooks = hooks;
  }

  get state(): OsUpdateState {
    return this.#state;
  }

  // Resolves once the update started by the last apply() ended (tests).
  get settled(): Promise<void> {
    return this.#work;
  }

  apply(target: HostOsTarget | null | undefined): void {
    if (!target || this.#running !== null || this.#failed.has(target.version)) return;
    if (!newer(target.version, this.#options.osVersion())) return;
    this.#running = target.version;
    this.#work = this.#update(target).finally(() => {
      this.#running = null;
    });
  }

  #set(state: string | null, progress: number | null): void {
    this.#state = { provisioning_state: state, provisioning_progress: progress };
    this.#hooks.changed();
  }

  #fail(version: string, reason: string): void {
    this.#failed.add(version);
    this.#hooks.log(`Host OS update to balenaOS ${version} failed: ${reason}`);
    this.#set(`OS update to balenaOS ${version} failed: ${reason}`, null);
  }

  async #update(target: HostOsTarget): Promise<void> {
    const { enabled, engine, device, osVersion } = this.#options;
    const { log } = this.#hooks;
    const version = target.version;
    if (!enabled) return this.#fail(version, notSupportedReason);
    if (engine === null) {
      return this.#fail(version, 'OS updates need a container engine on this host');
    }
    if (!target.updaterImage) {
      return this.#fail(version, 'the release has no updater image in the host OS catalogue');
    }
    const image = target.updaterImage;
    log(`Host OS update: downloading balenaOS ${version} (${image})`);
    this.#set(`OS update: downloading balenaOS ${version}`, 0);
    try {
      await engine.pull(image, (percent) =>
        this.#set(`OS update: downloading balenaOS ${version}`, Math.round(percent)),
      );
    } catch (error) {
      return this.#fail(version, `the updater image could not be pulled: ${errorText(error)}`);
    }
    this.#set(`OS update: applying balenaOS ${version}`, 0);
    let lastError = '';
    let code: number;
    try {
      code = await engine.run(
        {
          image,
          environment: {
            FLOTILLA_OS_TARGET_VERSION: version,
            FLOTILLA_OS_CURRENT_VERSION: bareVersion(osVersion()),
            FLOTILLA_OS_TARGET_RELEASE_ID: String(target.releaseId ?? ''),
            FLOTILLA_DEVICE_UUID: device.uuid,
            FLOTILLA_DEVICE_TYPE: device.deviceType,
            FLOTILLA_HOST_ROOT: updaterHostRoot,
          },
          binds: [`/:${updaterHostRoot}`, '/dev:/dev'],
        },
        (line, isStdErr) => {
          if (isStdErr) {
            if (line.trim() !== '') lastError = line.trim();
            return;
          }
          const progress = progressOf(line);
          if (progress) {
            const step = progress.step === '' ? 'applying' : progress.step;
            this.#set(`OS update: ${step} balenaOS ${version}`, progress.percent);
          }
        },
      );
    } catch (error) {
      return this.#fail(version, `the updater could not run: ${errorText(error)}`);
    }
    if (code !== 0) {
      return this.#fail(version, lastError || `the updater exited with code ${code}`);
    }
    log(`Host OS update: rebooting into balenaOS ${version}`);
    this.#set(`OS update: rebooting into balenaOS ${version}`, 100);
    this.#hooks.reboot();
  }
}
