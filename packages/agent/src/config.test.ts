import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadAgentConfig, parseAgentConfig, updateConfigFile } from './config.js';

const balenaLike = {
  applicationId: 1234,
  apiEndpoint: 'https://api.example.com',
  deviceType: 'raspberrypi4-64',
  apiKey: 'provisioning-key',
  appUpdatePollInterval: '900000',
  vpnEndpoint: 'vpn.example.com',
  listenPort: 48484,
};

describe('agent config', () => {
  it("reads balena's config.json keys with defaults", () => {
    const config = parseAgentConfig(balenaLike);
    expect(config).toMatchObject({
      applicationId: 1234,
      apiEndpoint: 'https://api.example.com',
      deviceType: 'raspberrypi4-64',
      provisioningApiKey: 'provisioning-key',
      appUpdatePollInterval: 900_000,
      uuid: null,
      deviceApiKey: null,
      registeredAt: null,
    });
    expect(config.host.rebootCommand).toEqual(['systemctl', 'reboot']);
    expect(
      parseAgentConfig({ ...balenaLike, appUpdatePollInterval: undefined }).appUpdatePollInterval,
    ).toBe(600_000);
  });

  it('accepts provisioningApiKey and host settings', () => {
    const config = parseAgentConfig({
      ...balenaLike,
      apiKey: undefined,
      provisioningApiKey: 'other',
      flotilla: {
        rebootCommand: ['sudo', 'reboot'],
        serviceCommands: { status: ['systemctl', 'is-active', '{service}'] },
        serviceEnvironmentDir: '/run/flotilla/env',
      },
    });
    expect(config.host.serviceEnvironmentDir).toBe('/run/flotilla/env');
    expect(config.provisioningApiKey).toBe('other');
    expect(config.host.rebootCommand).toEqual(['sudo', 'reboot']);
    expect(config.host.serviceCommands.status).toEqual(['systemctl', 'is-active', '{service}']);
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      parseAgentConfig({
        apiEndpoint: 'ftp://x',
        applicationId: -1,
        uuid: 'XYZ',
        appUpdatePollInterval: 5,
        flotilla: { rebootCommand: 'reboot', serviceEnvironmentDir: 'relative/env' },
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'apiEndpoint must be an http(s) URL',
      'applicationId must be an integer of at least 1',
      'deviceType is required',
      'uuid must be 32 or 62 lower-case hex characters',
      'apiKey (the provisioning key) or deviceApiKey is required',
      'appUpdatePollInterval must be an integer of at least 10000',
      'flotilla.serviceEnvironmentDir must be an absolute path',
      'flotilla.rebootCommand must be a non-empty array of strings (argv)',
    ]);
  });

  it('reaches the web server on port 80 unless flotilla.webServerPort says otherwise', () => {
    expect(parseAgentConfig(balenaLike).host.webServerPort).toBe(80);
    expect(
      parseAgentConfig({ ...balenaLike, flotilla: { webServerPort: '8080' } }).host.webServerPort,
    ).toBe(8080);
    for (const refused of [0, 65_536, 'eighty']) {
      expect(() =>
        parseAgentConfig({ ...balenaLike, flotilla: { webServerPort: refused } }),
      ).toThrow(/flotilla\.webServerPort must be/);
    }
  });

  it('writes identity changes back, keeping unknown keys', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'flotilla-config-'));
    const file = path.join(directory, 'config.json');
    try {
      await writeFile(file, JSON.stringify(balenaLike));
      await updateConfigFile(file, { uuid: 'a'.repeat(32), deviceApiKey: 'device-key-1234567' });
      const written = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      expect(written).toMatchObject({
        vpnEndpoint: 'vpn.example.com',
        listenPort: 48484,
        uuid: 'a'.repeat(32),
      });
      expect((await loadAgentConfig(file)).deviceApiKey).toBe('device-key-1234567');
      await expect(loadAgentConfig(path.join(directory, 'missing.json'))).rejects.toThrow(
        /cannot read/,
      );
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
