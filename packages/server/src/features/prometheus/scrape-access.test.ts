import { parseIpNetwork } from '@flotilla/shared/net/ip-networks';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../infra/config/config.js';
import { scrapeVerdict } from './scrape-access.js';

const token = 'a-metrics-token-of-length';
const office = parseIpNetwork('10.1.0.0/16');

describe('who may scrape /metrics', () => {
  it('is off with neither a token nor a network', () => {
    const config = loadConfig({}).prometheus;
    expect(scrapeVerdict(config, { authorization: `Bearer ${token}`, ip: '127.0.0.1' })).toBe(
      'off',
    );
  });

  it('admits the exact bearer token, or an address of an allowed network', () => {
    if (!office) throw new Error('network');
    const config = { token, allowedNetworks: [office], fleetLimit: 100 };
    expect(scrapeVerdict(config, { authorization: `Bearer ${token}`, ip: '192.0.2.1' })).toBe(
      'allowed',
    );
    expect(scrapeVerdict(config, { authorization: `Bearer ${token}x`, ip: '192.0.2.1' })).toBe(
      'refused',
    );
    expect(scrapeVerdict(config, { authorization: undefined, ip: '10.1.200.3' })).toBe('allowed');
    expect(scrapeVerdict(config, { authorization: undefined, ip: '::ffff:10.1.0.9' })).toBe(
      'allowed',
    );
    expect(scrapeVerdict(config, { authorization: undefined, ip: '10.2.0.1' })).toBe('refused');
  });

  it('reads its settings from the environment, refusing bad ones', () => {
    const config = loadConfig({
      FLOTILLA_PROMETHEUS_TOKEN: token,
      FLOTILLA_PROMETHEUS_ALLOWED_NETWORKS: '10.0.0.0/8, ::1',
      FLOTILLA_PROMETHEUS_FLEETS: '20',
    }).prometheus;
    expect(config.token).toBe(token);
    expect(config.allowedNetworks).toHaveLength(2);
    expect(config.fleetLimit).toBe(20);
    expect(() => loadConfig({ FLOTILLA_PROMETHEUS_TOKEN: 'short' })).toThrow(/at least 16/);
    expect(() => loadConfig({ FLOTILLA_PROMETHEUS_ALLOWED_NETWORKS: '10.0.0.0/99' })).toThrow(
      /not an address or CIDR range/,
    );
    expect(() => loadConfig({ FLOTILLA_PROMETHEUS_FLEETS: '0' })).toThrow(
      /FLOTILLA_PROMETHEUS_FLEETS/,
    );
  });
});
