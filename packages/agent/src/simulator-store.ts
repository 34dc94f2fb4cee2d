import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DeviceIdentity, IdentityStore } from './provisioning.js';

// What a simulated device keeps across simulator runs when a state dir is given: the identity
// (so restarts reuse registered devices instead of registering new ones) and its looks.
export type StoredDevice = Partial<DeviceIdentity> & {
  name: string;
  deviceType: string;
  // Seeds the rest of the profile (versions, addresses, location) reproducibly.
  seed: number;
  // The name and location were sent to the API.
  described?: boolean;
  // Versions the device updated to (else the seed's), so a restart keeps them.
  osVersion?: string;
  supervisorVersion?: string;
};

type FileShape = { version: 1; devices: Record<string, StoredDevice> };

const fileName = 'simulated-devices.json';

export class SimulatorStore {
  readonly #file: string | null;
  readonly #devices: Map<string, StoredDevice>;
  #dirty = false;
  #writing: Promise<void> = Promise.resolve();
  #queued: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;

  private constructor(file: string | null, devices: Map<string, StoredDevice>) {
    this.#file = file;
    this.#devices = devices;
  }

  // Memory only without a directory.
  static async open(directory: string | null): Promise<SimulatorStore> {
    if (directory === null) return new SimulatorStore(null, new Map());
    await mkdir(directory, { recursive: true });
    const file = path.join(directory, fileName);
    let devices = new Map<string, StoredDevice>();
    try {
      const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<FileShape>;
      devices = new Map(Object.entries(parsed.devices ?? {}));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new Error(`cannot read ${file}: ${(error as Error).message}`);
      }
    }
    return new SimulatorStore(file, devices);
  }

  get(key: string): StoredDevice | undefined {
    return this.#devices.get(key);
  }

  set(key: string, device: StoredDevice): void {
    this.#devices.set(key, device);
    this.#scheduleWrite();
  }

  identityStore(key: string): IdentityStore {
    return {
      load: async () => {
        const stored = this.#devices.get(key);
        return stored ? { ...stored } : {};
      },
      save: async (identity) => {
        const stored = this.#devices.get(key);
        if (!stored) throw new Error(`no simulated device ${key}`);
        this.set(key, { ...stored, ...identity });
        // Never lose a registered key: write now rather than on the debounce.
        await this.flush();
      },
    };
  }

  // Writes coalesce: while one is running, every flush shares the single next write, which
  // serialises the state as it is when it starts. Thousands of registrations cost a few writes.
  async flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const file = this.#file;
    if (!file) return;
    if (this.#queued) return this.#queued;
    if (!this.#dirty) return this.#writing;
    const next = this.#writing.then(async () => {
      this.#queued = null;
      this.#dirty = false;
      const shape: FileShape = { version: 1, devices: Object.fromEntries(this.#devices) };
      const temporary = `${file}.tmp`;
      await writeFile(temporary, `${JSON.stringify(shape, null, 1)}\n`, { mode: 0o600 });
      await rename(temporary, file);
    });
    this.#queued = next;
    this.#writing = next.catch(() => undefined);
    return next;
  }

  #scheduleWrite(): void {
    this.#dirty = true;
    if (!this.#file || this.#timer) return;
    this.#timer = setTimeout(() => void this.flush(), 500);
    this.#timer.unref();
  }
}
