import type { Queryable } from '../src/infra/db/database.js';
import type { BenchUser, SeededFleet, SeedInfo } from './seed.js';

// Each scenario does the same work twice: through the real HTTP server and OData engine, and
// through hand-written SQL on a plain pg Pool (the baseline). The device protocol, which has no
// SQL twin, has its own scenarios and table (protocol.ts).
export type Scenario = {
  name: string;
  engine: () => Promise<void>;
  sql: () => Promise<void>;
  // Runs both sides once on a fixed sample and returns the differences (empty when they agree).
  verify?: () => Promise<string[]>;
};

export type BenchEnv = {
  baseUrl: string;
  // The baseline: a plain pg Pool (see poolQueryable in explain.ts).
  sql: Queryable;
  seed: SeedInfo;
  tokens: { admin: string; member: string };
  random: () => number;
};

export type Caller = { label: string; user: BenchUser; token: string; fleets: SeededFleet[] };

// A small seeded PRNG (mulberry32), so every run picks the same sequence of fleets and devices.
export const seededRandom = (seed: number): (() => number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
};

export const pick = <T>(items: readonly T[], random: () => number): T => {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
};
