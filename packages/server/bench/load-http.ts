import { Pool } from 'undici';
import type { RequestSpec } from './load-jobs.js';

// The load generator's HTTP client: undici pools with keep-alive connections, one pool per server
// and size, kept across rounds so every round after the first starts on warm connections.

const pools = new Map<string, Pool>();

export const poolFor = (baseUrl: string, connections: number): Pool => {
  const key = `${baseUrl}|${connections}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new Pool(baseUrl, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
    pools.set(key, pool);
  }
  return pool;
};

export const closePools = async (): Promise<void> => {
  await Promise.all([...pools.values()].map((pool) => pool.close()));
  pools.clear();
};

export const send = async (pool: Pool, spec: RequestSpec): Promise<void> => {
  const response = await pool.request({
    method: spec.method,
    path: spec.path,
    headers: spec.headers,
    body: spec.body,
  });
  if (spec.expect.includes(response.statusCode)) {
    await response.body.dump();
    return;
  }
  const text = await response.body.text();
  throw new Error(
    `${spec.method} ${spec.path.slice(0, 120)} answered ${response.statusCode}: ${text.slice(0, 200)}`,
  );
};

// Each call sends the next set (round-robin) at once and waits for all of its answers.
export const requestSetOp = (pool: Pool, sets: readonly RequestSpec[][]): (() => Promise<void>) => {
  let next = 0;
  return async () => {
    const set = sets[next++ % sets.length];
    if (!set) throw new Error('no requests to send');
    await Promise.all(set.map((spec) => send(pool, spec)));
  };
};
