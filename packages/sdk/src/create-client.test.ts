import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFlotillaClient } from './create-client.js';
import { createFakeServer, testApiUrl } from './test-support/fake-server.js';
import { createTestClient } from './test-support/test-client.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('createFlotillaClient', () => {
  it('drops a trailing slash from apiUrl', () => {
    const { client } = createTestClient();
    expect(client.apiUrl).toBe(testApiUrl);
  });

  it('fetches the public config without the token', async () => {
    const { client, server } = createTestClient('key');
    const config = {
      deployment: null,
      deviceUrlsBase: 'devices.example.com',
      signupCodeRequired: false,
      supportedSocialProviders: [],
    };
    server.on('GET', '/config', { json: config });
    expect(await client.config()).toEqual(config);
    expect(server.calls[0]?.headers.get('authorization')).toBeNull();
  });

  it('fetches the device-type manifests', async () => {
    const { client, server } = createTestClient('key');
    const manifest = {
      slug: 'raspberrypi4-64',
      name: 'Raspberry Pi 4 (64bit)',
      aliases: ['raspberrypi4-64'],
      arch: 'aarch64',
      yocto: { deployArtifact: 'x.img' },
    };
    server.on('GET', '/device-types/v1', { json: [manifest] });
    expect(await client.deviceTypes()).toEqual([manifest]);
    expect(server.calls[0]?.headers.get('authorization')).toBe('Bearer key');
  });

  it('uses the global fetch, same-origin paths and the default client header', async () => {
    const server = createFakeServer();
    server.on('GET', '/config', { json: {} });
    const relative = vi.fn((input: RequestInfo | URL, init?: RequestInit) =>
      server.fetch(new URL(String(input), testApiUrl), init),
    );
    vi.stubGlobal('fetch', relative);
    const client = createFlotillaClient({});
    await client.config();
    expect(client.apiUrl).toBe('');
    expect(relative.mock.calls[0]?.[0]).toBe('/config');
    expect(server.calls[0]?.headers.get('x-balena-client')).toMatch(/^flotilla-console\/\d+\.\d+/);
  });
});
