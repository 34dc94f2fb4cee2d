import { checksReport } from '@flotilla/shared/diagnostics/diagnostics';
import { describe, expect, it } from 'vitest';
import { type HostProbe, hostDiagnoseReport, runHostChecks, systemProbe } from './health-checks.js';

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
});
