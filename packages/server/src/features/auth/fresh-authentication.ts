import {
  freshAuthenticationRequiredMessage,
  reauthenticationWindowMs,
} from '@flotilla/shared/auth/reauthentication';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { ApiError } from '../../infra/errors/api-error.js';
import { currentSession } from './current-session.js';

// Refuses the request unless the caller is a session whose password was given within the
// re-authentication window (shared/auth/reauthentication.ts). An API key carries no time of
// authentication, so it never counts as fresh (as in balena, where such keys cannot mint user
// keys either).
export const requireFreshAuthentication = async (
  request: FastifyRequest,
  ctx: Pick<AppContext, 'jwtSecret' | 'now'>,
): Promise<void> => {
  const actor = request.actor;
  if (actor.kind !== 'user' || actor.via !== 'session') {
    throw new ApiError('unauthorized', freshAuthenticationRequiredMessage);
  }
  const { claims } = await currentSession(request, ctx);
  if (ctx.now().getTime() - claims.authTime >= reauthenticationWindowMs) {
    throw new ApiError('unauthorized', freshAuthenticationRequiredMessage);
  }
};
