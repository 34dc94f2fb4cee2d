import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('code-host configuration', () => {
  it('looks repositories up on GitHub within 10 s, public addresses only, by default', () => {
    expect(loadConfig({}).codeHost).toEqual({
      webUrl: 'https://github.com',
      apiUrl: 'https://api.github.com',
      rawUrl: 'https://raw.githubusercontent.com',
      allowedNetworks: [],
      timeoutMs: 10_000,
    });
  });

  it('reads a self-hosted code host, its allowed networks and timeout', () => {
    const codeHost = loadConfig({
      FLOTILLA_CODE_HOST_URL: 'https://git.example.com/',
      FLOTILLA_CODE_HOST_API_URL: 'https://git.example.com/api/v3',
      FLOTILLA_CODE_HOST_RAW_URL: 'https://git.example.com/raw',
      FLOTILLA_CODE_HOST_ALLOWED_NETWORKS: ' 10.0.0.0/8, 192.168.1.5 ',
      FLOTILLA_CODE_HOST_TIMEOUT_MS: '2500',
    }).codeHost;
    expect(codeHost).toEqual({
      webUrl: 'https://git.example.com',
      apiUrl: 'https://git.example.com/api/v3',
      rawUrl: 'https://git.example.com/raw',
      allowedNetworks: ['10.0.0.0/8', '192.168.1.5'],
      timeoutMs: 2500,
    });
  });

  it('refuses a host that is not an http(s) URL or a network that is not one', () => {
    expect(() => loadConfig({ FLOTILLA_CODE_HOST_URL: 'ftp://git.example.com' })).toThrow(
      /FLOTILLA_CODE_HOST_URL: must be an http\(s\) URL/,
    );
    expect(() =>
      loadConfig({ FLOTILLA_CODE_HOST_ALLOWED_NETWORKS: '10.0.0.0/8,intranet' }),
    ).toThrow(/FLOTILLA_CODE_HOST_ALLOWED_NETWORKS: intranet is not an address or CIDR range/);
  });
});
