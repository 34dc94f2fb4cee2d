import type { LoadStats } from './measure.js';
import type { ProtocolDevice, ProtocolEnv, ProtocolResult } from './protocol-types.js';

// Helpers shared by the device protocol scenarios: number formatting, device HTTP calls and
// result rows.

export const integer = (value: number): string => Math.round(value).toLocaleString('en');
export const percent = (part: number, whole: number): string =>
  whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : '-';

export const deviceCall = async (
  env: ProtocolEnv,
  device: ProtocolDevice,
  method: 'GET' | 'PATCH',
  path: string,
  init: { body?: unknown; etag?: string } = {},
): Promise<Response> => {
  const headers: Record<string, string> = { authorization: `Bearer ${device.key}` };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.etag !== undefined) headers['if-none-match'] = init.etag;
  return fetch(`${env.baseUrl}${path}`, {
    method,
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
};

export const failure = async (response: Response, what: string): Promise<Error> =>
  new Error(`${what} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);

// Hands out the devices round-robin, so concurrent requests never belong to one device.
export const roundRobin = <T>(items: readonly T[]): (() => T) => {
  let next = 0;
  return () => {
    const item = items[next++ % items.length];
    if (item === undefined) throw new Error('no devices');
    return item;
  };
};

export const fromStats = (
  name: string,
  stats: LoadStats,
  notes: string,
  details: Record<string, number> = {},
): ProtocolResult => ({
  name,
  unit: 'req/s',
  rate: stats.requestsPerSecond,
  p50Ms: stats.p50Ms,
  p99Ms: stats.p99Ms,
  notes,
  errors: stats.errors,
  firstError: stats.firstError,
  details: { requests: stats.requests, ...details },
});
