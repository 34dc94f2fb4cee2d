import type { AppContext } from '../../app-context.js';
import type { Queryable } from '../../infra/db/database.js';
import { platformPermissionsOf, platformRolesSql } from '../../infra/auth/resolve-actor.js';
import { type SessionClaims, signSessionToken } from '../../infra/auth/session-token.js';
import { ApiError } from '../../infra/errors/api-error.js';

export type SessionOptions = {
  // When the user last proved their password (ms); a fresh login or re-authentication is now.
  authTime?: number;
  actualUser?: number;
  twoFactorRequired?: boolean;
  oauthAuthorization?: number;
  // The latest the token may expire (s): an OAuth token's bound, kept through refreshes.
  expiresBy?: number;
};

// What a session's new token keeps of the old one (refresh, second factor passed, another
// session ended): who acts, whose application it is and how long it may live. authTime is the
// caller's to decide.
export const carriedClaims = (
  claims: SessionClaims,
): Omit<SessionOptions, 'authTime' | 'twoFactorRequired'> => ({
  ...(claims.actualUser !== undefined ? { actualUser: claims.actualUser } : {}),
  ...(claims.oauthAuthorization !== undefined
    ? { oauthAuthorization: claims.oauthAuthorization, expiresBy: claims.exp }
    : {}),
});

// Signs a session token for a user with the current jwt_secret and platform permissions.
export const issueSessionToken = async (
  ctx: Pick<AppContext, 'jwtSecret' | 'now'>,
  db: Queryable,
  userId: number,
  options: SessionOptions = {},
): Promise<string> => {
  const { rows } = await db.query<{ jwt_secret: string; platform_roles: string[] }>(
    `SELECT u."jwt_secret", ${platformRolesSql('u')} AS "platform_roles" FROM "user" u WHERE u."id" = $1`,
    [userId],
  );
  const user = rows[0];
  if (!user) throw new ApiError('unauthorized', 'Unauthorized');
  const now = ctx.now();
  return signSessionToken(
    ctx.jwtSecret,
    {
      id: userId,
      jwt_secret: user.jwt_secret,
      authTime: options.authTime ?? now.getTime(),
      permissions: platformPermissionsOf(user.platform_roles),
      ...(options.actualUser !== undefined ? { actualUser: options.actualUser } : {}),
      ...(options.twoFactorRequired !== undefined
        ? { twoFactorRequired: options.twoFactorRequired }
        : {}),
      ...(options.oauthAuthorization !== undefined
        ? { oauthAuthorization: options.oauthAuthorization }
        : {}),
    },
    now,
    options.expiresBy !== undefined ? { exp: options.expiresBy } : {},
  );
};
