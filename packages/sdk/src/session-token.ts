// The claims of a session token (a JWT) as the console uses them. Times are in ms since the
// epoch; the token's own iat/exp (seconds) are converted.
export type Session = {
  // Claim `id`: the user's id (not the actor id).
  userId: number;
  // When the user last gave their password.
  authTime: number;
  issuedAt: number;
  expiresAt: number;
  // Absent: two-factor is off; true: the challenge is pending; false: it was passed.
  twoFactorRequired?: boolean;
  // Platform permissions such as admin.home and support.home.
  permissions: string[];
  // Set when an administrator acts as this user.
  actualUser?: number;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isFiniteNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

const decodeBase64Url = (segment: string): string => {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='));
  return new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
};

const payloadOf = (token: string): unknown => {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[1] === undefined || parts[1] === '') return undefined;
  try {
    return JSON.parse(decodeBase64Url(parts[1])) as unknown;
  } catch {
    return undefined;
  }
};

// The session a token stands for, or null when it is not a session JWT (an opaque API key, or
// garbage). The signature is the server's business; nothing here trusts the claims for access.
export const decodeSessionToken = (token: string): Session | null => {
  const claims = payloadOf(token);
  if (!isRecord(claims)) return null;
  const { id, iat, exp, authTime, twoFactorRequired, permissions, actualUser } = claims;
  if (!isFiniteNumber(id) || !isFiniteNumber(iat) || !isFiniteNumber(exp)) return null;
  const session: Session = {
    userId: id,
    authTime: isFiniteNumber(authTime) ? authTime : iat * 1000,
    issuedAt: iat * 1000,
    expiresAt: exp * 1000,
    permissions: Array.isArray(permissions)
      ? permissions.filter((permission): permission is string => typeof permission === 'string')
      : [],
  };
  if (typeof twoFactorRequired === 'boolean') session.twoFactorRequired = twoFactorRequired;
  if (isFiniteNumber(actualUser)) session.actualUser = actualUser;
  return session;
};

// balena's rule: a token that decodes as a JWT is a session token; anything else is an API key.
export const isJwt = (token: string): boolean => isRecord(payloadOf(token));

export const isSessionExpired = (session: Session, now: number): boolean =>
  now >= session.expiresAt;
