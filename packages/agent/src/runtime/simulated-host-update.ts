import { compareOsVersions, parseOsVersion } from '@flotilla/shared/host-os/os-version';
import type { Random } from '../clock.js';
import type { Scheduler, TaskHandle } from '../scheduler.js';
import type { HostOsTarget } from '../target-types.js';

// A simulated balenaOS host update: told (through its target state) to run a newer host OS
// release, the device downloads it with progress, applies it and reboots into it, reporting each
// step in provisioning_state / provisioning_progress as balenaOS's updater does. A share of
// updates fails: the device reports why, rolls back and keeps the version it ran, and does not
// try that release again. A supervisor update swaps the supervisor version in place.

export type HostUpdateTiming = {
  // Between two progress steps of a download (five steps of 20 %).
  osUpdateStepMs: number;
};

export type HostUpdateState = {
  provisioning_state: string | null;
  provisioning_progress: number | null;
};

export type SimulatedHostUpdateOptions = {
  scheduler: Scheduler;
  random: Random;
  timing: HostUpdateTiming;
  osVersion: string;
  supervisorVersion: string;
  // Share of OS updates that fail and roll back (0..1).
  failureChance: number;
  log(message: string): void;
  changed(): void;
  // The OS or supervisor version changed (the simulator keeps it across runs).
  versionsChanged?(versions: { osVersion: string; supervisorVersion: string }): void;
  // Restart the device into the new OS.
  reboot(): void;
};

const downloadSteps = 5;

const newer = (target: string, running: string): boolean => {
  const wanted = parseOsVersion(target);
  const current = parseOsVersion(running);
  return wanted !== null && (current === null || compareOsVersions(wanted, current) > 0);
};

const failureReasons = [
  'the new root filesystem did not pass its checks',
  'the device did not come back healthy after the update',
  'not enough space on the data partition',
];

export class SimulatedHostUpdate {
  readonly #options: SimulatedHostUpdateOptions;
  #osVersion: string;
  #supervisorVersion: string;
  #state: HostUpdateState = { provisioning_state: null, provisioning_progress: null };
  #running: HostOsTarget | null = null;
  // The version the device boots into next, once an update is applied.
  #pending: string | null = null;
  #failed = new Set<string>();
  #task: TaskHandle | null = null;

  constructor(options: SimulatedHostUpdateOptions) {
    this.#options = options;
    this.#osVersion = options.osVersion;
    this.#supervisorVersion = options.supervisorVersion;
  }

  get osVersion(): string {
    return this.#osVersion;
  }

  get supervisorVersion(): string {
    return this.#supervisorVersion;
  }

  get state(): HostUpdateState {
    return this.#state;
  }

  // At boot: a device that applied an update now runs it.
  boot(): void {
    const pending = this.#pending;
    if (pending === null) return;
    this.#pending = null;
    this.#running = null;
    this.#osVersion = `balenaOS ${pending}`;
    this.#state = { provisioning_state: null, provisioning_progress: null };
    this.#options.log(`Host OS update complete: running balenaOS ${pending}`);
    this.#versionsChanged();
  }

  // Power lost mid-update: the download starts again when the target asks for it again.
  stop(): void {
    this.#task?.cancel();
    this.#task = null;
    if (this.#pending === null && this.#running !== null) {
      this.#running = null;
      this.#state = { provisioning_state: null, provisioning_progress: null };
    }
  }

  applyOs(target: HostOsTarget | null | undefined): void {
    if (!target || this.#running !== null || this.#pending !== null) return;
    if (this.#failed.has(target.version) || !newer(target.version, this.#osVersion)) return;
    this.#running = target;
    this.#options.log(`Host OS update: downloading balenaOS ${target.version}`);
    this.#step(0);
  }

  applySupervisor(version: string | null): void {
    if (version === null || !newer(version, this.#supervisorVersion)) return;
    const from = this.#supervisorVersion;
    this.#supervisorVersion = version;
    this.#options.log(`Supervisor updated from ${from} to ${version}`);
    this.#options.changed();
    this.#versionsChanged();
  }

  #versionsChanged(): void {
    this.#options.versionsChanged?.({
      osVersion: this.#osVersion,
      supervisorVersion: this.#supervisorVersion,
    });
  }

  #set(state: string | null, progress: number | null): void {
    this.#state = { provisioning_state: state, provisioning_progress: progress };
    this.#options.changed();
  }

  #after(run: () => void): void {
    this.#task = this.#options.scheduler.after(this.#options.timing.osUpdateStepMs, () => {
      this.#task = null;
      run();
    });
  }

  #step(done: number): void {
    const target = this.#running;
    if (!target) return;
    if (done < downloadSteps) {
      this.#set(`OS update: downloading balenaOS ${target.version}`, (done * 100) / downloadSteps);
      this.#after(() => this.#step(done + 1));
      return;
    }
    this.#set(`OS update: applying balenaOS ${target.version}`, 100);
    this.#after(() => this.#finish(target));
  }

  #finish(target: HostOsTarget): void {
    const { random, failureChance, log } = this.#options;
    this.#running = null;
    if (random() < failureChance) {
      const reason = failureReasons[Math.floor(random() * failureReasons.length)];
      const running = this.#osVersion.replace(/^balenaOS\s+/, '');
      this.#failed.add(target.version);
      log(`Host OS update to balenaOS ${target.version} failed: ${reason}; rolled back`);
      this.#set(
        `OS update to balenaOS ${target.version} failed: ${reason}; rolled back to balenaOS ${running}`,
        null,
      );
      return;
    }
    this.#pending = target.version;
    log(`Host OS update: rebooting into balenaOS ${target.version}`);
    this.#set(`OS update: rebooting into balenaOS ${target.version}`, 100);
    this.#after(() => this.#options.reboot());
  }
}
