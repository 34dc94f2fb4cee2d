import { createHmac, randomBytes } from 'node:crypto';
import { decodeJwt, jwtVerify, SignJWT } from 'jose';
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

  it("carries an OAuth token's authorization, and ends it by the given time, never later", async () => {
    const base = now.getTime() / 1000;
    const token = await signSessionToken(secret, { ...input, oauthAuthorization: 9 }, now, {
      exp: base + 3600,
    });
    const claims = await verifySessionToken(secret, token, now);
    expect(claims).toMatchObject({ oauthAuthorization: 9, exp: base + 3600 });
    const capped = await signSessionToken(secret, input, now, { exp: base + 100 * 3600 });
    expect(decodeJwt(capped).exp).toBe(base + 36 * 3600);
    expect(decodeJwt(await signSessionToken(secret, input, now))).not.toHaveProperty(
      'oauthAuthorization',
    );
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

  it('interoperates with jose both ways', async () => {
    const ours = await signSessionToken(secret, input, now);
    const { payload, protectedHeader } = await jwtVerify(ours, secret, { currentDate: now });
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload.id).toBe(7);
    const theirs = await new SignJWT({ ...input })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(now)
      .setExpirationTime(new Date(now.getTime() + 60_000))
      .sign(secret);
    expect((await verifySessionToken(secret, theirs, now)).id).toBe(7);
  });

  it('is expired from the second of exp on, by the injected clock', async () => {
    const token = await signSessionToken(secret, input, now);
    const exp = now.getTime() + 36 * 3600 * 1000;
    expect((await verifySessionToken(secret, token, new Date(exp - 1))).id).toBe(7);
    expect(await failure(verifySessionToken(secret, token, new Date(exp)))).toBe('expired');
    // An expired claim on a forged token is still "invalid": the signature is checked first.
    expect(await failure(verifySessionToken(randomBytes(32), token, new Date(exp)))).toBe(
      'invalid',
    );
  });

  it('refuses alg none, lower-case and asymmetric algorithm names', async () => {
    const token = await signSessionToken(secret, input, now);
    const [, payload, signature] = token.split('.');
    const headerOf = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const signedWith = (head: string) =>
      `${head}.${payload}.${createHmac('sha256', secret).update(`${head}.${payload}`).digest('base64url')}`;
    for (const alg of ['none', 'hs256', 'RS256', 'ES256', 'HS384']) {
      const head = headerOf({ alg, typ: 'JWT' });
      expect(await failure(verifySessionToken(secret, `${head}.${payload}.`, now))).toBe('invalid');
      expect(await failure(verifySessionToken(secret, signedWith(head), now))).toBe('invalid');
      expect(
        await failure(verifySessionToken(secret, `${head}.${payload}.${signature}`, now)),
      ).toBe('invalid');
    }
    // Correctly signed, but with a critical extension we do not understand.
    const crit = headerOf({ alg: 'HS256', crit: ['b64'], b64: false });
    expect(await failure(verifySessionToken(secret, signedWith(crit), now))).toBe('invalid');
    // The same header, re-encoded, is fine: the signature covers the bytes sent.
    expect((await verifySessionToken(secret, signedWith(headerOf({ alg: 'HS256' })), now)).id).toBe(
      7,
    );
  });

  it('refuses tampered payloads, headers and signatures', async () => {
    const token = await signSessionToken(secret, input, now);
    const [header = '', payload = '', signature = ''] = token.split('.');
    const claims = decodeJwt(token);
    const reencoded = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const tampered = [
      `${header}.${reencoded({ ...claims, id: 8 })}.${signature}`,
      `${header}.${reencoded({ ...claims, exp: (claims.exp ?? 0) + 3600 })}.${signature}`,
      `${reencoded({ alg: 'HS256', typ: 'JWS' })}.${payload}.${signature}`,
      `${header}.${payload}.${signature.slice(0, -1)}`,
      `${header}.${payload}.${signature}A`,
      `${header}.${payload}`,
      `${header}.${payload}.${signature}.${signature}`,
      ` ${token}`,
    ];
    for (const forged of tampered) {
      expect(await failure(verifySessionToken(secret, forged, now))).toBe('invalid');
    }
    // A signature spelled differently that decodes to the same bytes (the last character carries
    // two unused bits) is not the canonical encoding and is refused.
    const last = signature.at(-1) ?? 'A';
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = alphabet[alphabet.indexOf(last) ^ 1] ?? 'A';
    const malleable = `${header}.${payload}.${signature.slice(0, -1)}${sibling}`;
    expect(Buffer.from(malleable.split('.')[2] ?? '', 'base64url')).toEqual(
      Buffer.from(signature, 'base64url'),
    );
    expect(await failure(verifySessionToken(secret, malleable, now))).toBe('invalid');
  });

  it('refuses signed payloads that are not claim objects', async () => {
    const signed = async (payload: unknown) => {
      const head = Buffer.from(JSON.stringify({ alg: 'HS256' })).toString('base64url');
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      const mac = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
      return verifySessionToken(secret, `${head}.${body}.${mac}`, now);
    };
    const iat = now.getTime() / 1000;
    const valid = { ...input, iat, exp: iat + 60 };
    expect((await signed(valid)).id).toBe(7);
    expect(await failure(signed([valid]))).toBe('invalid');
    expect(await failure(signed(null))).toBe('invalid');
    expect(await failure(signed({ ...valid, exp: String(valid.exp) }))).toBe('invalid');
    expect(await failure(signed({ ...valid, iat: undefined }))).toBe('invalid');
    expect(await failure(signed({ ...valid, nbf: iat + 10 }))).toBe('invalid');
    expect((await signed({ ...valid, nbf: iat })).id).toBe(7);
    expect(await failure(signed({ ...valid, id: '7' }))).toBe('invalid');
  });

  it('tells JWTs from opaque API keys', async () => {
    expect(looksLikeJwt(await signSessionToken(secret, input, now))).toBe(true);
    expect(looksLikeJwt('ABCdef0123456789ABCdef0123456789ABCdef01234')).toBe(false);
    expect(looksLikeJwt('a.b.c')).toBe(false);
    const objectPayload = Buffer.from('{"a":1}').toString('base64url');
    expect(looksLikeJwt(`x.${objectPayload}.y`)).toBe(true);
    expect(looksLikeJwt(`x.${Buffer.from('[1]').toString('base64url')}.y`)).toBe(false);
    expect(looksLikeJwt(`x.${objectPayload}`)).toBe(false);
  });
});
