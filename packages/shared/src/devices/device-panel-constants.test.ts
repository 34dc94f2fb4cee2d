import { describe, expect, it } from 'vitest';
import { checksFileName, diagnosticsFileName, logsFileName } from './device-panel-constants.js';

describe('download file names', () => {
  const at = new Date('2026-11-24T08:30:15.123Z');

  it('names checks and diagnostics by the device uuid and the time', () => {
    expect(checksFileName('abc123', at)).toBe('abc123_checks_2026-11-24T08-30-15-123Z.json');
    expect(diagnosticsFileName('abc123', at)).toBe(
      'abc123_diagnostics_2026-11-24T08-30-15-123Z.txt',
    );
  });

  it('names a log file from the fleet, the device and the time, without unsafe characters', () => {
    expect(logsFileName('My fleet', 'pi/one', at)).toBe(
      'My_fleet_pi_one_2026-11-24T08-30-15-123Z.log',
    );
  });
});
