import { between, type Random } from '../clock.js';
import type { DeviceMetrics } from './device-runtime.js';

export type MetricsProfile = {
  memoryTotalMb: number;
  storageTotalMb: number;
  storageBlockDevice: string;
  // Raspberry Pis with a weak supply report undervoltage now and then.
  mayUndervolt: boolean;
};

// The share of storage a full disk reads (what is left is the file system's reserve).
const fullShare = 0.99;

// Chance per reading of a busy spell.
const spellChance = 0.04;

const clamp = (value: number, min: number, max: number): number =>
  Math.min(max, Math.max(min, value));

// Metrics that wander: a bounded random walk pulled back towards a per-device baseline, so a
// fleet shows a believable spread that changes between reports.
export class WanderingMetrics {
  readonly #profile: MetricsProfile;
  readonly #random: Random;
  readonly #cpuBase: number;
  readonly #memoryBase: number;
  #cpu: number;
  #memory: number;
  #storage: number;
  #undervolted = false;
  // While set, storage reads as good as full, whatever the walk says.
  diskFull = false;

  constructor(profile: MetricsProfile, random: Random) {
    this.#profile = profile;
    this.#random = random;
    this.#cpuBase = between(random, 4, 45);
    this.#memoryBase = between(random, 0.25, 0.7);
    this.#cpu = this.#cpuBase;
    this.#memory = this.#memoryBase;
    this.#storage = between(random, 0.15, 0.6);
  }

  // Storage in use now (MB), without moving the walk (the simulated shell's df).
  get storageUsedMb(): number {
    return Math.round(this.#profile.storageTotalMb * this.#storageShare());
  }

  #storageShare(): number {
    return this.diskFull ? fullShare : this.#storage;
  }

  // Load rises while containers start and falls back afterwards.
  bump(amount: number): void {
    this.#cpu = clamp(this.#cpu + amount, 1, 98);
  }

  next(runningServices: number): DeviceMetrics {
    const random = this.#random;
    const pull = (value: number, base: number): number => value + (base - value) * 0.3;
    this.#cpu = clamp(
      pull(this.#cpu, this.#cpuBase + runningServices * 3) + between(random, -8, 8),
      1,
      98,
    );
    // Now and then a busy spell (a build, a burst of work) that the pull then brings back down,
    // so the history charts show peaks crossing the colour thresholds on some devices.
    if (random() < spellChance) this.#cpu = clamp(this.#cpu + between(random, 25, 50), 1, 98);
    this.#memory = clamp(
      pull(this.#memory, this.#memoryBase) + between(random, -0.04, 0.04),
      0.1,
      0.95,
    );
    this.#storage = clamp(this.#storage + between(random, 0, 0.002), 0.05, 0.97);
    if (this.#profile.mayUndervolt && random() < 0.05) this.#undervolted = !this.#undervolted;
    const { memoryTotalMb, storageTotalMb, storageBlockDevice } = this.#profile;
    return {
      cpu_usage: Math.round(this.#cpu),
      cpu_temp: Math.round(36 + this.#cpu * 0.35 + between(random, -2, 2)),
      memory_usage: Math.round(memoryTotalMb * this.#memory),
      memory_total: memoryTotalMb,
      storage_usage: Math.round(storageTotalMb * this.#storageShare()),
      storage_total: storageTotalMb,
      storage_block_device: storageBlockDevice,
      is_undervolted: this.#undervolted,
    };
  }
}
