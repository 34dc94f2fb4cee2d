import { platformPermissionOf, platformRoles } from '@flotilla/shared/permissions/roles';
import type { Queryable } from '../db/database.js';
import { ApiError } from '../errors/api-error.js';
import type { ActorResolver } from '../http/create-app.js';
import { anonymous } from './actor.js';
import type { ActorCache, Resolution } from './actor-cache.js';
import { hashApiKey } from './api-key-tokens.js';
import { looksLikeJwt, SessionTokenError, verifySessionToken } from './session-token.js';

// Platform roles are stored by name (user_platform_role, 0003-auth.sql); tokens and actors carry
// the permission strings the console checks (admin.home, support.home).
export const platformPermissionsOf = (roles: readonly string[]): string[] =>
  platformRoles.filter((role) => roles.includes(role)).map((role) => platformPermissionOf[role]);

// SQL yielding the platform role names of the user row aliased `u`.
export const platformRolesSql = (userAlias: string): string =>
  `coalesce((SELECT array_agg(pr."role" ORDER BY pr."role") FROM "user_platform_role" pr WHERE pr."user" = ${userAlias}."id"), '{}')`;

type SessionRow = {
  actor: number;
  jwt_secret: string;
  platform_roles: string[];
  actual_user_is_admin: boolean | null;
  oauth_authorized: boolean | null;
  unverified: boolean;
};

// SQL: whether the user row aliased `u` must verify its address and has not yet.
const unverifiedSql = (userAlias: string): string =>
  `(${userAlias}."must_be_verified" AND NOT ${userAlias}."is_verified")`;

type ApiKeyRow = {
  actor: number;
  expiry_date: Date | null;
  user_id: number | null;
  application_id: number | null;
  device_id: number | null;
  device_application: number | null;
  platform_roles: string[] | null;
  unverified: boolean | null;
};

const resolveSession = async (
  db: Queryable,
  secret: Uint8Array,
  token: string,
  now: Date,
): Promise<Resolution> => {
  let claims;
  try {
    claims = await verifySessionToken(secret, token, now);
  } catch (error) {
    if (error instanceof SessionTokenError) throw new ApiError('unauthorized', error.message);
    throw error;
  }
  const { rows } = await db.query<SessionRow>(
    `SELECT u."actor", u."jwt_secret", ${platformRolesSql('u')} AS "platform_roles",
            CASE WHEN $2::integer IS NULL THEN NULL ELSE EXISTS (
              SELECT 1 FROM "user_platform_role" pr WHERE pr."user" = $2 AND pr."role" = 'balena_admin'
            ) END AS "actual_user_is_admin",
            CASE WHEN $3::integer IS NULL THEN NULL ELSE EXISTS (
              SELECT 1 FROM "oauth_application_authorization" oa
               WHERE oa."id" = $3 AND oa."belongs_to__user" = u."id"
            ) END AS "oauth_authorized",
            ${unverifiedSql('u')} AS "unverified"
       FROM "user" u WHERE u."id" = $1`,
    [claims.id, claims.actualUser ?? null, claims.oauthAuthorization ?? null],
  );
  const row = rows[0];
  // A deleted user or a rotated jwt_secret revokes every session issued before; a login-as
  // session also ends when its administrator is no longer one (or no longer exists), an OAuth
  // application's when the user revokes its authorization (a trigger reports it as a change of
  // the user, migration 0033).
  if (
    !row ||
    row.jwt_secret !== claims.jwt_secret ||
    (claims.actualUser !== undefined && row.actual_user_is_admin !== true) ||
    (claims.oauthAuthorization !== undefined && row.oauth_authorized !== true)
  ) {
    throw new ApiError('unauthorized', 'Your session has expired');
  }
  return {
    actor: {
      kind: 'user',
      userId: claims.id,
      actorId: row.actor,
      platformPermissions: platformPermissionsOf(row.platform_roles),
      via: 'session',
      twoFactorPending: claims.twoFactorRequired === true,
      emailVerificationPending: row.unverified,
      ...(claims.actualUser !== undefined ? { actualUserId: claims.actualUser } : {}),
      ...(claims.oauthAuthorization !== undefined
        ? { oauthAuthorizationId: claims.oauthAuthorization }
        : {}),
    },
    dependsOn:
      claims.actualUser === undefined
        ? [`user:${claims.id}`]
        : [`user:${claims.id}`, `user:${claims.actualUser}`],
    validUntil: claims.exp * 1000,
  };
};

const resolveApiKey = async (db: Queryable, key: string, now: Date): Promise<Resolution> => {
  // One query: the key, and whichever of user, fleet or device owns its actor.
  const { rows } = await db.query<ApiKeyRow>(
    `SELECT k."is_of__actor" AS "actor",
            k."expiry_date",
            u."id" AS "user_id",
            a."id" AS "application_id",
            d."id" AS "device_id",
            d."belongs_to__application" AS "device_application",
            CASE WHEN u."id" IS NULL THEN NULL ELSE ${platformRolesSql('u')} END AS "platform_roles",
            ${unverifiedSql('u')} AS "unverified"
       FROM "api_key" k
       LEFT JOIN "user" u ON u."actor" = k."is_of__actor"
       LEFT JOIN "application" a ON a."actor" = k."is_of__actor"
       LEFT JOIN "device" d ON d."actor" = k."is_of__actor"
      WHERE k."key_hash" = $1 AND (k."expiry_date" IS NULL OR k."expiry_date" > $2)`,
    [hashApiKey(key), now],
  );
  const row = rows[0];
  if (!row) throw new ApiError('unauthorized', 'Unauthorized');
  const validUntil = row.expiry_date?.getTime() ?? null;
  if (row.user_id !== null) {
    return {
      actor: {
        kind: 'user',
        userId: row.user_id,
        actorId: row.actor,
        platformPermissions: platformPermissionsOf(row.platform_roles ?? []),
        via: 'api-key',
        twoFactorPending: false,
        emailVerificationPending: row.unverified === true,
      },
      dependsOn: [`actor:${row.actor}`, `user:${row.user_id}`],
      validUntil,
    };
  }
  if (row.application_id !== null) {
    return {
      actor: { kind: 'application', applicationId: row.application_id, actorId: row.actor },
      dependsOn: [`actor:${row.actor}`],
      validUntil,
    };
  }
  if (row.device_id !== null && row.device_application !== null) {
    return {
      actor: {
        kind: 'device',
        deviceId: row.device_id,
        actorId: row.actor,
        applicationId: row.device_application,
      },
      dependsOn: [`actor:${row.actor}`],
      validUntil,
    };
  }
  throw new ApiError('unauthorized', 'Unauthorized');
};

// What resolving a caller needs: the database, the session signing secret and the clock.
export type ActorResolverDeps = { db: Queryable; jwtSecret: Uint8Array; now: () => Date };

// Turns the bearer token of a request into who is calling: a session JWT (signature, expiry and
// the user's current jwt_secret are checked) or an opaque API key (looked up by hash, expiry
// honoured). One query on a miss; with a cache, none on a hit — the credential's own expiry is
// still checked against the clock at every use, and the cache drops what a change invalidates.
export const createActorResolver =
  (ctx: ActorResolverDeps, cache?: ActorCache): ActorResolver =>
  async (token) => {
    if (token === undefined || token === '') return anonymous;
    const now = ctx.now();
    const cached = cache?.lookup(token, now);
    if (cached) return cached;
    const ticket = cache?.ticket();
    const resolution = looksLikeJwt(token)
      ? await resolveSession(ctx.db, ctx.jwtSecret, token, now)
      : await resolveApiKey(ctx.db, token, now);
    if (cache && ticket !== undefined) cache.store(token, resolution, ticket, now);
    return resolution.actor;
  };
