import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { sessionTokenLifetimeSeconds } from '@flotilla/shared/constants/limits';

// Claims of a session token, named exactly as balena's (the SDK types them as JWTUser and reads
// iat, exp and twoFactorRequired). `authTime` is when the user last gave their password, in ms.
export type SessionClaims = {
  id: number;
  jwt_secret: string;
  authTime: number;
  actualUser?: number;
  // Present only for users with two-factor enabled: true while the challenge is pending.
  twoFactorRequired?: boolean;
  // An OAuth application's token: the user's authorization of it (oauth_application_authorization
  // id). The session lives only as long as that authorization.
  oauthAuthorization?: number;
  permissions: string[];
  iat: number;
  exp: number;
};

export type SessionTokenInput = Omit<SessionClaims, 'iat' | 'exp'>;

const algorithm = 'HS256';

const claimsSchema = z.object({
  id: z.number().int().positive(),
  jwt_secret: z.string().min(1),
  authTime: z.number().int().nonnegative(),
  actualUser: z.number().int().positive().optional(),
  twoFactorRequired: z.boolean().optional(),
  oauthAuthorization: z.number().int().positive().optional(),
  permissions: z.array(z.string()).default([]),
  iat: z.number().int(),
  exp: z.number().int(),
});

// HS256 through node:crypto with the key prepared once per secret: jose's WebCrypto path
// imported the key on every verification (a fifth of the CPU of an authenticated request).
const preparedKeys = new WeakMap<Uint8Array, KeyObject>();
const keyOf = (secret: Uint8Array): KeyObject => {
  let key = preparedKeys.get(secret);
  if (!key) {
    key = createSecretKey(secret);
    preparedKeys.set(secret, key);
  }
  return key;
};

const signatureOf = (secret: Uint8Array, signingInput: string): string =>
  createHmac('sha256', keyOf(secret)).update(signingInput).digest('base64url');

const encodeSegment = (value: object): string =>
  Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

const header = encodeSegment({ alg: algorithm, typ: 'JWT' });

// `exp` (seconds) may be given to end a token sooner than the usual lifetime, never later.
export const signSessionToken = async (
  secret: Uint8Array,
  input: SessionTokenInput,
  now: Date,
  options: { exp?: number } = {},
): Promise<string> => {
  const iat = Math.floor(now.getTime() / 1000);
  const payload: Record<string, unknown> = {
    id: input.id,
    jwt_secret: input.jwt_secret,
    authTime: input.authTime,
    permissions: input.permissions,
  };
  if (input.actualUser !== undefined) payload.actualUser = input.actualUser;
  if (input.twoFactorRequired !== undefined) payload.twoFactorRequired = input.twoFactorRequired;
  if (input.oauthAuthorization !== undefined) {
    payload.oauthAuthorization = input.oauthAuthorization;
  }
  payload.iat = iat;
  payload.exp = Math.min(iat + sessionTokenLifetimeSeconds, options.exp ?? Infinity);
  const signingInput = `${header}.${encodeSegment(payload)}`;
  return `${signingInput}.${signatureOf(secret, signingInput)}`;
};

export type SessionTokenFailure = 'expired' | 'invalid';

export class SessionTokenError extends Error {
  readonly reason: SessionTokenFailure;
  constructor(reason: SessionTokenFailure) {
    super(reason === 'expired' ? 'The token expired' : 'Malformed token');
    this.name = 'SessionTokenError';
    this.reason = reason;
  }
}

const segmentPattern = /^[A-Za-z0-9_-]+$/;

// A base64url segment holding a JSON object, or undefined.
const decodeObject = (segment: string): Record<string, unknown> | undefined => {
  if (!segmentPattern.test(segment)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    return { ...value };
  } catch {
    return undefined;
  }
};

type CompactJwt = { header: string; payload: string; signature: string };

const splitCompact = (token: string): CompactJwt | undefined => {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [headerPart = '', payload = '', signature = ''] = parts;
  return { header: headerPart, payload, signature };
};

const sameText = (a: string, b: string): boolean => {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
};

const nowSeconds = (now: Date): number => Math.floor(now.getTime() / 1000);

// The registered time claims, with jose's rules: exp and iat required and numeric, expired once
// exp <= now (in whole seconds), not valid before nbf.
const checkTimes = (payload: Record<string, unknown>, now: Date): void => {
  const { exp, iat, nbf } = payload;
  if (typeof exp !== 'number' || typeof iat !== 'number') {
    throw new SessionTokenError('invalid');
  }
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > nowSeconds(now))) {
    throw new SessionTokenError('invalid');
  }
  if (exp <= nowSeconds(now)) throw new SessionTokenError('expired');
};

// Checks the form, the algorithm (exactly HS256, no critical extensions), the signature (in
// constant time, against the canonical encoding only), expiry against the injected clock and the
// claims. Whether jwt_secret still matches the user's is the caller's business (the database).
export const verifySessionToken = async (
  secret: Uint8Array,
  token: string,
  now: Date,
): Promise<SessionClaims> => {
  const parts = splitCompact(token);
  if (!parts || !segmentPattern.test(parts.signature)) throw new SessionTokenError('invalid');
  const protectedHeader = decodeObject(parts.header);
  if (protectedHeader?.alg !== algorithm || 'crit' in protectedHeader) {
    throw new SessionTokenError('invalid');
  }
  const expected = signatureOf(secret, `${parts.header}.${parts.payload}`);
  if (!sameText(parts.signature, expected)) throw new SessionTokenError('invalid');
  const payload = decodeObject(parts.payload);
  if (!payload) throw new SessionTokenError('invalid');
  checkTimes(payload, now);
  const parsed = claimsSchema.safeParse(payload);
  if (!parsed.success) throw new SessionTokenError('invalid');
  const { actualUser, twoFactorRequired, oauthAuthorization, ...claims } = parsed.data;
  return {
    ...claims,
    ...(actualUser !== undefined ? { actualUser } : {}),
    ...(twoFactorRequired !== undefined ? { twoFactorRequired } : {}),
    ...(oauthAuthorization !== undefined ? { oauthAuthorization } : {}),
  };
};

// Mirrors the SDK's rule: a bearer string is a JWT when its payload decodes as a JSON object;
// anything else is an opaque API key.
export const looksLikeJwt = (token: string): boolean => {
  const parts = splitCompact(token);
  return parts !== undefined && decodeObject(parts.payload) !== undefined;
};
