import { describe, expect, it } from 'vitest';
import { consoleUrl, databaseLocation, formatStartBanner } from './start-banner.js';

describe('start banner', () => {
  it('shows the console URL, the administrator, the generated password and where data lives', () => {
    const lines = formatStartBanner({
      url: 'http://localhost:8080',
      adminEmail: 'admin@flotilla.local',
      generatedPassword: 'Zx81Zx81Zx81Zx81Zx81Zx',
      database: { kind: 'embedded', dir: '/root/flotilla/data/postgres' },
      dataDir: '/root/flotilla/data',
    });
    expect(lines.slice(1, -1)).toEqual([
      '  Flotilla is ready',
      '  Console and API  http://localhost:8080',
      '  Administrator    admin@flotilla.local',
      '  Password         Zx81Zx81Zx81Zx81Zx81Zx  (generated, shown at this start only)',
      '  Database         embedded PostgreSQL, data in /root/flotilla/data/postgres',
      '  Data directory   /root/flotilla/data',
      '  Stop             Ctrl-C',
    ]);
    expect(lines[0]).toMatch(/^─+$/);
    expect(lines.at(-1)).toBe(lines[0]);
  });

  it('leaves out a password it did not generate, and names the simulated devices', () => {
    const text = formatStartBanner({
      url: 'http://localhost:8080',
      adminEmail: 'root@example.com',
      generatedPassword: undefined,
      database: { kind: 'external', location: 'db.internal:5432/flotilla' },
      dataDir: '/srv/flotilla',
      simulatedDevices: 25,
    }).join('\n');
    expect(text).not.toContain('Password');
    expect(text).toContain('PostgreSQL at db.internal:5432/flotilla (DATABASE_URL)');
    expect(text).toContain('Simulated devices  25 in the Demo fleets');
  });

  it('says how to run a real device of the demo, or why there is none', () => {
    const base = {
      url: 'http://localhost:8080',
      adminEmail: 'root@example.com',
      generatedPassword: undefined,
      database: { kind: 'embedded', dir: '/srv/flotilla/postgres' },
      dataDir: '/srv/flotilla',
    } as const;
    expect(
      formatStartBanner({
        ...base,
        realDevices: { kind: 'real', fleet: 'demo/warehouse-gateways' },
      }).join('\n'),
    ).toContain(
      'Real device      FLOTILLA_PASSWORD=<password> npm run device -- --fleet demo/warehouse-gateways --email root@example.com',
    );
    expect(
      formatStartBanner({
        ...base,
        realDevices: { kind: 'simulated', reason: 'no container engine is configured' },
      }).join('\n'),
    ).toContain('Real device      not available here: no container engine is configured');
  });

  it('never shows the credentials of DATABASE_URL', () => {
    expect(databaseLocation('postgres://flotilla:s3cret@db.internal:5432/flotilla')).toBe(
      'db.internal:5432/flotilla',
    );
  });

  it('names loopback listeners localhost', () => {
    expect(consoleUrl('http://127.0.0.1:8080')).toBe('http://localhost:8080');
    expect(consoleUrl('http://[::1]:8080')).toBe('http://localhost:8080');
    expect(consoleUrl('http://10.0.0.5:8080')).toBe('http://10.0.0.5:8080');
  });
});
