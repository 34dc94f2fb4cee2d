import { describe, expect, it } from 'vitest';
import { parseCli, parseDuration } from './cli-args.js';

describe('parseCli', () => {
  it('reads real mode', () => {
    expect(parseCli(['--config', '/etc/flotilla/config.json'])).toEqual({
      mode: 'real',
      configPath: '/etc/flotilla/config.json',
      logLevel: 'info',
    });
  });

  it('reads simulator mode with defaults and environment fallbacks', () => {
    const command = parseCli(
      [
        '--simulate',
        '25',
        '--fleet',
        'admin/demo',
        '--poll-interval',
        '5s',
        '--lock-chance',
        '0.1',
        '--disk-full-chance',
        '0.02',
        '--os-update-failure-chance',
        '0.05',
      ],
      {
        FLOTILLA_API: 'http://localhost:8080',
        FLOTILLA_PROVISIONING_KEY: 'key',
      },
    );
    expect(command).toMatchObject({
      mode: 'simulate',
      count: 25,
      fleet: 'admin/demo',
      provisioningKey: 'key',
      api: 'http://localhost:8080',
      pollIntervalMs: 5000,
      updateLockChance: 0.1,
      diskFullChance: 0.02,
      osUpdateFailureChance: 0.05,
    });
    expect(
      parseCli(['--simulate', '1', '--fleet', 'f', '--provisioning-key', 'k', '--api', 'http://x']),
    ).toMatchObject({
      pollIntervalMs: 10_000,
      diskFullChance: 0,
      osUpdateFailureChance: 0,
    });
  });

  it('explains what is wrong', () => {
    expect(() => parseCli([])).toThrow(/--config <file> or --simulate <N>/);
    expect(() => parseCli(['--simulate', '3'])).toThrow(
      '--simulate also needs --fleet, --provisioning-key, --api',
    );
    expect(() => parseCli(['--simulate', 'many'])).toThrow(/positive integer/);
    expect(() => parseCli(['--bogus'])).toThrow(/bogus/);
    expect(() => parseCli(['--config', 'a', '--simulate', '2'])).toThrow(/exclude/);
    expect(parseCli(['--help'])).toEqual({ mode: 'help' });
    expect(() =>
      parseCli([
        '--simulate',
        '1',
        '--fleet',
        'f',
        '--provisioning-key',
        'k',
        '--api',
        'http://x',
        '--os-update-failure-chance',
        '2',
      ]),
    ).toThrow('--os-update-failure-chance must be between 0 and 1');
    expect(() =>
      parseCli([
        '--simulate',
        '1',
        '--fleet',
        'f',
        '--provisioning-key',
        'k',
        '--api',
        'http://x',
        '--disk-full-chance',
        '1.5',
      ]),
    ).toThrow('--disk-full-chance must be between 0 and 1');
  });

  it('parses the update fault a new release brings to a share of simulated devices', () => {
    const base = [
      '--simulate',
      '2',
      '--fleet',
      'f',
      '--provisioning-key',
      'k',
      '--api',
      'http://x',
    ];
    expect(
      parseCli([...base, '--update-fault-chance', '0.5', '--update-fault', 'offline']),
    ).toMatchObject({ updateFaultChance: 0.5, updateFault: 'offline' });
    expect(parseCli(base)).toMatchObject({ updateFaultChance: 0, updateFault: 'crash-loop' });
    expect(() => parseCli([...base, '--update-fault', 'melt'])).toThrow(
      '--update-fault must be one of crash-loop, failing-check, offline',
    );
  });

  it('parses durations', () => {
    expect(parseDuration('500ms', 'x')).toBe(500);
    expect(parseDuration('10', 'x')).toBe(10_000);
    expect(parseDuration('1.5m', 'x')).toBe(90_000);
    expect(() => parseDuration('soon', '--poll-interval')).toThrow(/--poll-interval/);
  });
});
