import type { RequestSpec } from './load-jobs.js';
import type { BenchEnv, Measure, Row, Side, Window } from './scenario.js';

// What the scenarios share: OData literals, auth headers, request sets for the load generator,
// HTTP reads for the checks.

// OData literals as the SDK sends them: spaces percent-encoded, the rest left readable.
export const odata = (text: string): string => text.replace(/ /g, '%20');

export const bearer = (token: string): Record<string, string> => ({
  authorization: `Bearer ${token}`,
});

export const get = (path: string, headers: Record<string, string> = {}): RequestSpec => ({
  method: 'GET',
  path,
  headers,
  expect: [200],
});

export const baseUrlOf = (env: BenchEnv, side: Side): string =>
  side === 'flotilla' ? env.flotilla.url : env.reference.url;

// The closed-loop request sets of one side, run by the load generator.
export const runSets = (
  env: BenchEnv,
  side: Side,
  sets: RequestSpec[][],
  concurrency: number,
  window: Window,
): Promise<Measure> =>
  env.load.run({ kind: 'requests', baseUrl: baseUrlOf(env, side), concurrency, sets }, window);

// For the checks (not measured): one GET answered with JSON.
export const getJson = async <T>(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<T> => {
  const response = await fetch(`${baseUrl}${path}`, { headers });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`GET ${path.slice(0, 160)} answered ${response.status}: ${text.slice(0, 300)}`);
  }
  return JSON.parse(text) as T;
};

// What `spec` answers, parsed (set-up and verification; any method).
export const sendJson = async <T>(baseUrl: string, spec: RequestSpec): Promise<T> => {
  const response = await fetch(`${baseUrl}${spec.path}`, {
    method: spec.method,
    headers: spec.headers ?? {},
    ...(spec.body === undefined ? {} : { body: spec.body }),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(
      `${spec.method} ${spec.path.slice(0, 160)} answered ${response.status}: ${text.slice(0, 300)}`,
    );
  }
  return JSON.parse(text) as T;
};

// Runs `work` over the items with `concurrency` in flight (set-up such as priming ETags).
export const forEachLimited = async <T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> => {
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let item = items[next++]; item !== undefined; item = items[next++]) await work(item);
  };
  await Promise.all(Array.from({ length: concurrency }, () => worker()));
};

// A seeded PRNG (mulberry32), so every run picks the same fleets, pages and devices.
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

// Rows whose goal is the "p99 ≤ N× the hand-written route" and "≥ N× the reference".
export const p99Ratio = (name: string, atMost: number): Row => ({
  name,
  metric: 'p99Ms',
  unit: 'ms',
  goal: { kind: 'ratio', better: 'lower', target: atMost },
  goalText: `p99 ≤ ${atMost}x`,
});

export const throughputRatio = (
  name: string,
  unit: Row['unit'],
  atLeast: number,
  metric = 'opsPerSecond',
): Row => ({
  name,
  metric,
  unit,
  goal: { kind: 'ratio', better: 'higher', target: atLeast },
  goalText: `≥ ${atLeast}x`,
});

export const p99AtMost = (name: string, ms: number, metric = 'p99Ms'): Row => ({
  name,
  metric,
  unit: 'ms',
  goal: { kind: 'absolute', better: 'lower', target: ms },
  goalText: `p99 ≤ ${ms} ms`,
});
