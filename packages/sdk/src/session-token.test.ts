import { describe, expect, it } from 'vitest';
import { decodeSessionToken, isJwt, isSessionExpired } from './session-token.js';
import { makeJwt } from './test-support/fake-server.js';

describe('decodeSessionToken', () => {
  it('decodes the claims, converting iat and exp to ms', () => {
    const token = makeJwt({
      id: 12,
      jwt_secret: 's',
      authTime: 1_700_000_000_123,
      permissions: ['admin.home', 3],
      twoFactorRequired: false,
      actualUser: 4,
      iat: 1_700_000_100,
      exp: 1_700_129_700,
    });
    expect(decodeSessionToken(token)).toEqual({
      userId: 12,
      authTime: 1_700_000_000_123,
      issuedAt: 1_700_000_100_000,
      expiresAt: 1_700_129_700_000,
      permissions: ['admin.home'],
      twoFactorRequired: false,
      actualUser: 4,
    });
  });

  it('defaults authTime to iat and permissions to none', () => {
    const session = decodeSessionToken(makeJwt({ id: 1, iat: 100, exp: 200 }));
    expect(session).toEqual({
      userId: 1,
      authTime: 100_000,
      issuedAt: 100_000,
      expiresAt: 200_000,
      permissions: [],
    });
  });

  it('reads UTF-8 claims', () => {
    const token = makeJwt({ id: 1, iat: 1, exp: 2, permissions: ['Ünïcode ✓'] });
    expect(decodeSessionToken(token)?.permissions).toEqual(['Ünïcode ✓']);
  });

  it('is null for API keys, garbage and JWTs that are not session tokens', () => {
    expect(decodeSessionToken('aBcD1234opaqueApiKey')).toBeNull();
    expect(decodeSessionToken('a.b.c')).toBeNull();
    expect(decodeSessionToken('a.%%%.c')).toBeNull();
    expect(decodeSessionToken(makeJwt({ sub: 'x' }))).toBeNull();
    expect(isJwt(makeJwt({ sub: 'x' }))).toBe(true);
    expect(isJwt('aBcD1234opaqueApiKey')).toBe(false);
  });

  it('is expired from exp on', () => {
    const session = decodeSessionToken(makeJwt({ id: 1, iat: 100, exp: 200 }));
    if (!session) throw new Error('not decoded');
    expect(isSessionExpired(session, 199_999)).toBe(false);
    expect(isSessionExpired(session, 200_000)).toBe(true);
  });
});
