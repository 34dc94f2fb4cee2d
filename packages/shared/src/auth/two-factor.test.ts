import { describe, expect, it } from 'vitest';
import { authenticatorCodeProblem, normalizeTwoFactorCode, otpauthUri } from './two-factor.js';

describe('two-factor rules', () => {
  it('normalizes what people type: spaces, dashes and case', () => {
    expect(normalizeTwoFactorCode(' 123 456 ')).toBe('123456');
    expect(normalizeTwoFactorCode('ABCDE-FGHJK')).toBe('abcdefghjk');
  });

  it('an authenticator code is required and must be 6 digits', () => {
    expect(authenticatorCodeProblem('')).toBe('required');
    expect(authenticatorCodeProblem('   ')).toBe('required');
    expect(authenticatorCodeProblem('12345')).toBe('invalid');
    expect(authenticatorCodeProblem('12345a')).toBe('invalid');
    expect(authenticatorCodeProblem('1234567')).toBe('invalid');
    expect(authenticatorCodeProblem('123 456')).toBeUndefined();
  });

  it('builds the key URI authenticator apps read, with the account label escaped', () => {
    const uri = new URL(otpauthUri('Flotilla', 'ann smith@example.com', 'JBSWY3DPEHPK3PXP'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(uri.pathname).toBe('/Flotilla:ann%20smith%40example.com');
    expect(uri.searchParams.get('secret')).toBe('JBSWY3DPEHPK3PXP');
    expect(uri.searchParams.get('issuer')).toBe('Flotilla');
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
  });
});
