import { adminUserPageSize, adminUserSearchMaxLength } from '@flotilla/shared/users/admin-users';
import type { FastifyInstance } from 'fastify';
import { recordRequestEvent } from '../audit-log/audit-events.js';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { requireSessionMay } from '../../infra/auth/session-rules.js';
import { ApiError, badRequest, forbidden } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import { findAccount } from '../auth/login.js';
import { searchUsers } from './user-directory.js';

type PlatformAdmin = Extract<Actor, { kind: 'user' }>;

// Platform administrators hold admin.home (user_platform_role balena_admin). Anyone else gets the
// API's 401 for a forbidden action (wire contract: forbidden answers are 401).
export const requirePlatformAdmin = (actor: Actor): PlatformAdmin => {
  if (actor.kind !== 'user' || !actor.platformPermissions.includes('admin.home')) {
    throw forbidden();
  }
  return actor;
};

const userListQuery = z.object({
  search: z.string().trim().max(adminUserSearchMaxLength).default(''),
  limit: z.coerce.number().int().min(1).max(100).default(adminUserPageSize),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

const loginAsBody = z.object({ username: z.string().trim().min(1).max(320) });

// The platform administrator's area: the user list with search and paging,
// and login-as — PATCH /login_ {username} answers a session token for that user (text/plain, as
// POST /login_) whose actualUser claim is the administrator, so every request made with it is
// attributable (request-log.ts logs each one with both ids). The token carries the user's own
// platform permissions, never the administrator's. The mail outbox is in features/mail.
export const registerPlatformAdmin = (app: FastifyInstance, ctx: AppContext): void => {
  app.get('/admin/v1/users', { config: { access: 'user' } }, async (request) => {
    requirePlatformAdmin(request.actor);
    return searchUsers(ctx.db, parseBody(userListQuery, request.query));
  });

  app.patch('/login_', { config: { access: 'user' } }, async (request, reply) => {
    const admin = requirePlatformAdmin(request.actor);
    // Login-as from a login-as session would hide who acts: go back to your own account first.
    if (admin.actualUserId !== undefined) {
      throw forbidden('Return to your own account before signing in as another user');
    }
    requireSessionMay(admin, 'log-in-as');
    const { username } = parseBody(loginAsBody, request.body);
    const target = await findAccount(ctx.db, username);
    if (!target) throw new ApiError('not_found', `No user ${username}`);
    if (target.id === admin.userId) throw badRequest('You are already signed in as this user');
    const token = await issueSessionToken(ctx, ctx.db, target.id, { actualUser: admin.userId });
    const actor = {
      kind: 'user-id',
      userId: target.id,
      via: 'session',
      actualUserId: admin.userId,
    } as const;
    await recordRequestEvent(
      ctx.db,
      request,
      { action: 'login_as', resource: 'user', resourceId: target.id, actor },
      ctx.now(),
    );
    request.log.info(
      { actualUser: admin.userId, userId: target.id },
      'platform administrator signed in as another user (login-as)',
    );
    return reply.type('text/plain; charset=utf-8').send(token);
  });
};
