import type { BalenaSDK } from 'balena-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueFile } from '../src/features/host-os/catalogue-entry.js';
import { importCatalogue } from '../src/features/host-os/catalogue-store.js';
import { type BalenaCli, balenaCli } from '../src/test-support/balena-cli.js';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import { registerUser } from './contract-helpers.js';

// The host OS catalogue an operator loaded, as the unmodified balena-sdk and balena-cli read it:
// OS versions per device type (only final, valid, successful ones offered), every version
// including invalidated ones, supervisor releases per CPU architecture, and the device types
// that have a host OS to install.

describe('host OS catalogue through balena-sdk and balena-cli', () => {
  let server: TestServer;
  let sdk: BalenaSDK;
  let cli: BalenaCli;

  beforeAll(async () => {
    server = await startTestServer();
    // Parsed as the import route parses a file, defaults included.
    const os = [
      { version: '6.0.13', variant: 'prod', phase: 'current' },
      { version: '6.0.13', variant: 'dev', phase: 'current' },
      { version: '5.3.21', variant: 'prod', phase: 'sunset' },
      { version: '6.1.0', variant: 'prod', phase: 'next', invalidated: true },
    ].map((release) => ({ kind: 'os', deviceType: 'raspberrypi4-64', ...release }));
    const supervisor = [
      { version: '16.2.0', knownIssues: null },
      { version: '15.0.4', knownIssues: 'Slow on first boot' },
    ].map((release) => ({
      kind: 'supervisor',
      cpuArchitecture: 'aarch64',
      updaterImage: `registry.example.com/aarch64-supervisor:v${release.version}`,
      ...release,
    }));
    const file = catalogueFile.parse({ releases: [...os, ...supervisor] });
    await server.db.transaction((tx) => importCatalogue(tx, file));
    const user = await registerUser(server.url, 'hostos');
    sdk = user.sdk;
    cli = await balenaCli(server.url);
    await cli.run(['login', '--token', user.token]);
  });
  afterAll(async () => {
    await server.close();
  });

  it('os.getAvailableOsVersions offers the final, valid releases', async () => {
    const versions = await sdk.models.os.getAvailableOsVersions('raspberrypi4-64');
    expect(versions.map((v) => `${v.raw_version} ${v.variant}`).sort()).toEqual([
      '5.3.21 prod',
      '6.0.13 dev',
      '6.0.13 prod',
    ]);
    const current = versions.find((v) => v.raw_version === '6.0.13' && v.variant === 'prod');
    expect(current).toMatchObject({
      osType: 'default',
      strippedVersion: '6.0.13',
      line: 'current',
    });
    expect(await sdk.models.os.getAvailableOsVersions('raspberrypi5')).toEqual([]);
  });

  it('os.getAllOsVersions includes invalidated releases', async () => {
    const versions = await sdk.models.os.getAllOsVersions('raspberrypi4-64');
    expect(versions.map((v) => v.raw_version).sort()).toEqual([
      '5.3.21',
      '6.0.13',
      '6.0.13',
      '6.1.0',
    ]);
  });

  it('os.getSupervisorReleasesForCpuArchitecture answers the newest first', async () => {
    const releases = await sdk.models.os.getSupervisorReleasesForCpuArchitecture('aarch64');
    expect(releases.map((r) => [r.raw_version, r.known_issue_list])).toEqual([
      ['16.2.0', null],
      ['15.0.4', 'Slow on first boot'],
    ]);
    expect(await sdk.models.os.getSupervisorReleasesForCpuArchitecture('amd64')).toEqual([]);
  });

  it('deviceType.getAllSupported lists the device types with a host OS', async () => {
    const supported = await sdk.models.deviceType.getAllSupported({ $select: 'slug' });
    expect(supported.map((deviceType) => deviceType.slug)).toEqual(['raspberrypi4-64']);
  });

  it('balena os versions and balena device-type list print the catalogue', async () => {
    const versions = await cli.run(['os', 'versions', 'raspberrypi4-64']);
    // One line per release offered, newest first, with its OS line (dev and prod of 6.0.13).
    expect(versions.split('\n').filter((line) => line.startsWith('v'))).toEqual([
      'v6.0.13 (current)',
      'v6.0.13 (current)',
      'v5.3.21 (sunset)',
    ]);
    const deviceTypes = await cli.run(['device-type', 'list']);
    const rows = deviceTypes.split('\n').filter((line) => /^\S+\s+.*\S/.test(line));
    expect(rows[0]).toMatch(/^SLUG\s+ALIASES\s+ARCH\s+NAME/);
    expect(rows.slice(1).map((line) => line.split(/\s+/)[0])).toEqual(['raspberrypi4-64']);
    expect(rows[1]).toMatch(/aarch64\s+Raspberry Pi 4/);
  });
});
