import { describe, expect, it } from 'vitest';
import {
  checksFileName,
  diagnosticsFileName,
  logsFileName,
  minimumHostOsAccessVersion,
  osVersionBelow,
  targetStateApiVersion,
} from './device-panel-constants.js';

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

describe('OS version floors', () => {
  it('compares the version inside an OS name, giving unknown versions the benefit of the doubt', () => {
    expect(osVersionBelow('balenaOS 1.30.1', minimumHostOsAccessVersion)).toBe(true);
    expect(osVersionBelow('balenaOS 2.0.0', minimumHostOsAccessVersion)).toBe(false);
    expect(osVersionBelow('balenaOS 2.88.4+rev1', minimumHostOsAccessVersion)).toBe(false);
    expect(osVersionBelow('2.10.9', '2.11.0')).toBe(true);
    expect(osVersionBelow(null, minimumHostOsAccessVersion)).toBe(false);
    expect(osVersionBelow('Resin OS dev', minimumHostOsAccessVersion)).toBe(false);
  });
});

describe('the target state version of a supervisor', () => {
  it('is v2 below supervisor 13.0.0, else (or when unknown) v3', () => {
    expect(targetStateApiVersion('12.11.38')).toBe('v2');
    expect(targetStateApiVersion('v9.0.1')).toBe('v2');
    expect(targetStateApiVersion('13.0.0')).toBe('v3');
    expect(targetStateApiVersion('16.4.2')).toBe('v3');
    expect(targetStateApiVersion(null)).toBe('v3');
  });
});
