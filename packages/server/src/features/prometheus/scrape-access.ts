import { timingSafeEqual } from 'node:crypto';
import { inNetwork, parseIpAddress } from '@flotilla/shared/net/ip-networks';
import type { PrometheusConfig } from '../../infra/config/prometheus.js';

export type ScrapeVerdict = 'off' | 'allowed' | 'refused';

const sameToken = (given: string, expected: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

// Whether a scrape may read the metrics: with a token configured, its bearer token must match;
// with networks configured, the caller's address must be in one; with both, either will do.
export const scrapeVerdict = (
  config: PrometheusConfig,
  request: { authorization: string | undefined; ip: string },
): ScrapeVerdict => {
  if (config.token === undefined && config.allowedNetworks.length === 0) return 'off';
  const bearer = /^Bearer (.+)$/i.exec(request.authorization ?? '')?.[1];
  if (config.token !== undefined && bearer !== undefined && sameToken(bearer, config.token)) {
    return 'allowed';
  }
  const address = parseIpAddress(request.ip);
  if (address && config.allowedNetworks.some((network) => inNetwork(address, network))) {
    return 'allowed';
  }
  return 'refused';
};
