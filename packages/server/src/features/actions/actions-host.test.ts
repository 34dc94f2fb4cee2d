import { describe, expect, it } from 'vitest';
import { parseTargetVersion } from './os-update-action.js';
import { actionsHostPattern } from './register-actions.js';

describe('actionsHostPattern', () => {
  it('matches actions.<deviceUrlsBase> whatever the port, and nothing else', () => {
    const pattern = actionsHostPattern('devices.example.com:8443');
    for (const host of [
      'actions.devices.example.com',
      'actions.devices.example.com:443',
      'ACTIONS.Devices.Example.com:8443',
    ]) {
      expect(pattern.test(host), host).toBe(true);
    }
    for (const host of [
      'devices.example.com',
      'actions.devices.example.com.evil.test',
      'xactions.devices.example.com',
      'actions.devicesxexample.com',
    ]) {
      expect(pattern.test(host), host).toBe(false);
    }
  });
});

describe('parseTargetVersion', () => {
  it('reads the versions the SDK and the console send, with or without the variant', () => {
    expect(parseTargetVersion('6.0.13')).toMatchObject({ major: 6, patch: 13, variant: null });
    expect(parseTargetVersion('6.0.13.prod')).toMatchObject({ patch: 13, variant: 'prod' });
    expect(parseTargetVersion('2.88.4+rev1.dev')).toMatchObject({ revision: 1, variant: 'dev' });
    expect(parseTargetVersion('balenaOS 6.1.0')).toMatchObject({ minor: 1 });
    expect(() => parseTargetVersion('latest')).toThrow('is not a balenaOS version');
  });
});
