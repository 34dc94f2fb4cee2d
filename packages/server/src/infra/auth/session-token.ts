import { decodeJwt, errors as joseErrors, jwtVerify, SignJWT } from 'jose';
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
  permissions: z.array(z.string()).default([]),
  iat: z.number().int(),
  exp: z.number().int(),
});

export const signSessionToken = async (
  secret: Uint8Array,
  input: SessionTokenInput,
  now: Date,
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
  return new SignJWT(payload)
    .setProtectedHeader({ alg: algorithm, typ: 'JWT' })
    .setIssuedAt(iat)
    .setExpirationTime(iat + sessionTokenLifetimeSeconds)
    .sign(secret);
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

// Checks signature, algorithm and expiry against the injected clock. Whether jwt_secret still
// matches the user's is the caller's business (it needs the database).
export const verifySessionToken = async (
  secret: Uint8Array,
  token: string,
  now: Date,
): Promise<SessionClaims> => {
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(token, secret, {
      algorithms: [algorithm],
      currentDate: now,
      requiredClaims: ['iat', 'exp'],
    }));
  } catch (error) {
    throw new SessionTokenError(error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid');
  }
  const parsed = claimsSchema.safeParse(payload);
  if (!parsed.success) throw new SessionTokenError('invalid');
  const { actualUser, twoFactorRequired, ...claims } = parsed.data;
  return {
    ...claims,
    ...(actualUser !== undefined ? { actualUser } : {}),
    ...(twoFactorRequired !== undefined ? { twoFactorRequired } : {}),
  };
};

// Mirrors the SDK's rule: a bearer string is a JWT when it decodes as one; anything else is an
// opaque API key.
export const looksLikeJwt = (token: string): boolean => {
  if (token.split('.').length !== 3) return false;
  try {
    decodeJwt(token);
    return true;
  } catch {
    return false;
  }
};
