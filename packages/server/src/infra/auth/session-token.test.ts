import { randomBytes } from 'node:crypto';
import { decodeJwt, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  looksLikeJwt,
  SessionTokenError,
  signSessionToken,
  verifySessionToken,
} from './session-token.js';

const secret = randomBytes(32);
const now = new Date('2026-01-01T00:00:00Z');
const input = { id: 7, jwt_secret: 'abc', authTime: now.getTime(), permissions: ['admin.home'] };

const failure = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SessionTokenError) return error.reason;
    throw error;
  }
  throw new Error('expected a failure');
};

describe('session tokens', () => {
  it('carries balena claims with a 36 hour lifetime', async () => {
    const token = await signSessionToken(secret, input, now);
    const claims = decodeJwt(token);
    expect(claims).toEqual({
      id: 7,
      jwt_secret: 'abc',
      authTime: now.getTime(),
      permissions: ['admin.home'],
      iat: now.getTime() / 1000,
      exp: now.getTime() / 1000 + 36 * 3600,
    });
    expect(claims).not.toHaveProperty('twoFactorRequired');
  });

  it('includes twoFactorRequired and actualUser only when given', async () => {
    const token = await signSessionToken(
      secret,
      { ...input, twoFactorRequired: true, actualUser: 3 },
      now,
    );
    const claims = await verifySessionToken(secret, token, now);
    expect(claims.twoFactorRequired).toBe(true);
    expect(claims.actualUser).toBe(3);
  });

  it('verifies a fresh token and rejects it after expiry', async () => {
    const token = await signSessionToken(secret, input, now);
    expect((await verifySessionToken(secret, token, now)).id).toBe(7);
    const later = new Date(now.getTime() + 36 * 3600 * 1000 + 1000);
    expect(await failure(verifySessionToken(secret, token, later))).toBe('expired');
  });

  it('rejects another secret, tampering, other algorithms and missing claims', async () => {
    const token = await signSessionToken(secret, input, now);
    expect(await failure(verifySessionToken(randomBytes(32), token, now))).toBe('invalid');
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...input, id: 1, iat: 1, exp: 9e9 })).toString(
      'base64url',
    );
    expect(await failure(verifySessionToken(secret, `${header}.${forged}.${signature}`, now))).toBe(
      'invalid',
    );
    const hs512 = await new SignJWT({ ...input })
      .setProtectedHeader({ alg: 'HS512' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(secret);
    expect(await failure(verifySessionToken(secret, hs512, new Date()))).toBe('invalid');
    const noId = await new SignJWT({ jwt_secret: 'x', authTime: 1 })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(secret);
    expect(await failure(verifySessionToken(secret, noId, new Date()))).toBe('invalid');
  });

  it('tells JWTs from opaque API keys', async () => {
    expect(looksLikeJwt(await signSessionToken(secret, input, now))).toBe(true);
    expect(looksLikeJwt('ABCdef0123456789ABCdef0123456789ABCdef01234')).toBe(false);
    expect(looksLikeJwt('a.b.c')).toBe(false);
  });
});
