import { describe, expect, it } from 'vitest';
import {
  certificateBody,
  entryPointProblem,
  identityProviderMessages,
  pemCertificate,
  ssoIdentifierProblem,
} from './identity-provider-rules.js';

describe('identity provider rules', () => {
  it('take lowercase identifiers of letters, digits, _ and -, at least 3 long', () => {
    expect(ssoIdentifierProblem('acme_sso-2')).toBeUndefined();
    expect(ssoIdentifierProblem('')).toBe(identityProviderMessages.ssoIdentifierRequired);
    expect(ssoIdentifierProblem('Acme')).toBe(
      identityProviderMessages.ssoIdentifierInvalidCharacters,
    );
    expect(ssoIdentifierProblem('a b')).toBe(
      identityProviderMessages.ssoIdentifierInvalidCharacters,
    );
    expect(ssoIdentifierProblem('ab')).toBe(identityProviderMessages.ssoIdentifierTooShort);
  });

  it('take http and https entry points only', () => {
    expect(entryPointProblem('https://idp.example.com/sso')).toBeUndefined();
    expect(entryPointProblem('idp.example.com')).toBe(identityProviderMessages.entryPointInvalid);
    expect(entryPointProblem('javascript:alert(1)')).toBe(
      identityProviderMessages.entryPointInvalid,
    );
  });

  it('read one PEM certificate, and write it back in 64-character rows', () => {
    const body = 'QUJD'.repeat(40);
    const pem = pemCertificate(body);
    expect(pem.split('\n').map((row) => row.length)).toEqual([27, 64, 64, 32, 25]);
    expect(certificateBody(pem)).toBe(body);
    expect(certificateBody(`${pem}\n${pem}`)).toBeUndefined();
    expect(certificateBody(body)).toBeUndefined();
    expect(certificateBody(pem.replace('QUJD', 'QU*D'))).toBeUndefined();
  });
});
