import { checksReport } from '@flotilla/shared/diagnostics/diagnostics';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  containerEngineCheck,
  type HostProbe,
  hostDiagnoseReport,
  runHostChecks,
  type SocketState,
  systemProbe,
  usesContainerEngine,
} from './health-checks.js';

const gib = 1024 ** 3;

const fakeProbe = (
  files: Record<string, string>,
  overrides: Partial<HostProbe> = {},
): HostProbe => ({
  now: () => 1_000_000,
  disk: async () => ({ total: 100 * gib, free: 50 * gib }),
  memory: async () => ({ total: 4 * gib, available: 2 * gib }),
  read: async (path) => files[path],
  uptimeSeconds: () => 90_061,
  kernel: () => 'Linux 6.1.0 arm64',
  interfaces: () => ['eth0: 192.168.1.20/255.255.255.0 (IPv4)'],
  socket: async () => 'absent',
  executable: async () => undefined,
  ...overrides,
});

const synced = { '/run/systemd/timesync/synchronized': '' };

const results = async (probe: HostProbe, sentAt?: number) =>
  Object.fromEntries(
    (await runHostChecks(probe, sentAt === undefined ? {} : { sentAt })).checks.map((check) => [
      check.name,
      check.success,
    ]),
  );

describe('host health checks', () => {
  it('passes on a healthy machine and leaves out what it cannot read', async () => {
    expect(await results(fakeProbe(synced), 1_000_000 - 200)).toEqual({
      check_disk_space: true,
      check_memory: true,
      check_timesync: true,
      check_clock_skew: true,
      check_cloud_connectivity: true,
      check_container_engine: true,
    });
  });

  it('fails a full disk, low memory, an unsynchronised or skewed clock and under-voltage', async () => {
    const probe = fakeProbe(
      { '/sys/devices/platform/soc/soc:firmware/get_throttled': '0x50000\n' },
      {
        disk: async () => ({ total: 100 * gib, free: 5 * gib }),
        memory: async () => ({ total: 4 * gib, available: 0.2 * gib }),
      },
    );
    expect(await results(probe, 1_000_000 - 45_000)).toEqual({
      check_disk_space: false,
      check_memory: false,
      check_timesync: false,
      check_clock_skew: false,
      check_cloud_connectivity: true,
      check_under_voltage: false,
      check_container_engine: true,
    });
  });

  it('reads this machine for real', async () => {
    const report = checksReport.parse(await runHostChecks(systemProbe, { sentAt: Date.now() }));
    const names = report.checks.map((check) => check.name);
    expect(names).toEqual(expect.arrayContaining(['check_memory', 'check_clock_skew']));
    expect(report.checks.find((check) => check.name === 'check_memory')?.status).toMatch(
      /% of \d+\.\d GiB memory available/,
    );
  });

  it('writes a diagnostics report with the machine and the agent’s recent lines', async () => {
    const { stdout } = await hostDiagnoseReport(
      fakeProbe({ '/etc/os-release': 'PRETTY_NAME="Debian GNU/Linux 13"\n' }),
      ['2026-11-24T09:00:00.000Z Flotilla agent starting'],
    );
    for (const text of [
      '=== OS ===\nPRETTY_NAME="Debian GNU/Linux 13"',
      'Linux 6.1.0 arm64',
      '1 d 1 h 1 min',
      'eth0: 192.168.1.20',
      '50.0 GiB used of 100.0 GiB',
      'Flotilla agent starting',
    ]) {
      expect(stdout).toContain(text);
    }
  });

  describe('container engine', () => {
    const withSockets = (sockets: Record<string, SocketState>, binaries: string[] = []) =>
      fakeProbe(synced, {
        socket: async (socketPath) => sockets[socketPath] ?? 'absent',
        executable: async (name) => (binaries.includes(name) ? `/usr/bin/${name}` : undefined),
      });

    it('passes when an engine socket answers', async () => {
      expect(
        await containerEngineCheck(withSockets({ '/run/docker.sock': 'reachable' }), true),
      ).toEqual({
        name: 'check_container_engine',
        success: true,
        status: 'Container engine reachable at /run/docker.sock',
      });
    });

    it('fails a socket that does not answer or may not be used, and a daemonless install', async () => {
      const refused = await containerEngineCheck(
        withSockets({ '/var/run/balena-engine.sock': 'refused' }),
        false,
      );
      expect(refused).toMatchObject({ success: false });
      expect(refused.status).toBe(
        '/var/run/balena-engine.sock exists but the container engine does not answer on it',
      );
      const denied = await containerEngineCheck(
        withSockets({ '/var/run/docker.sock': 'denied' }),
        false,
      );
      expect(denied).toMatchObject({ success: false, status: expect.stringMatching(/permission/) });
      const daemonless = await containerEngineCheck(withSockets({}, ['docker']), false);
      expect(daemonless).toMatchObject({
        success: false,
        status: expect.stringMatching(/^\/usr\/bin\/docker is installed but no engine socket/),
      });
    });

    it('says clearly when there is no engine, failing only where the service shell needs one', async () => {
      const absent = await containerEngineCheck(withSockets({}), false);
      expect(absent).toMatchObject({
        success: true,
        status: expect.stringMatching(/^No container engine on this device/),
      });
      const needed = await containerEngineCheck(withSockets({}), true);
      expect(needed).toMatchObject({
        success: false,
        status: expect.stringMatching(/the service shell needs one$/),
      });
      expect(usesContainerEngine(['docker', 'exec', '-it', '{service}', 'sh'])).toBe(true);
      expect(usesContainerEngine(['/usr/bin/balena-engine', 'exec'])).toBe(true);
      expect(usesContainerEngine(['machinectl', 'shell', '{service}'])).toBe(false);
      expect(usesContainerEngine(null)).toBe(false);
    });

    it('probes real unix sockets', async () => {
      const directory = await mkdtemp(path.join(tmpdir(), 'flotilla-engine-'));
      const socketPath = path.join(directory, 'engine.sock');
      const server = createServer((connection) => connection.destroy());
      await new Promise<void>((resolve) => server.listen(socketPath, resolve));
      try {
        expect(await systemProbe.socket(socketPath)).toBe('reachable');
        expect(await systemProbe.socket(path.join(directory, 'missing.sock'))).toBe('absent');
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await rm(directory, { recursive: true, force: true });
      }
      expect(await systemProbe.executable('sh')).toMatch(/\/sh$/);
      expect(await systemProbe.executable('no-such-engine-binary')).toBeUndefined();
    });
  });
});
