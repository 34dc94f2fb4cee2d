import {
  freshAuthenticationRequiredMessage,
  reauthenticationWindowMs,
} from '@flotilla/shared/auth/reauthentication';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { actorMay } from '../../infra/auth/session-rules.js';
import { ApiError } from '../../infra/errors/api-error.js';
import { currentSession } from './current-session.js';

// Refuses the request unless the caller is a password session whose password was given within
// the re-authentication window (shared/auth/reauthentication.ts). No other kind of session counts
// (shared/auth/session-kinds.ts): an API key carries no time of authentication (as in balena,
// where such keys cannot mint user keys either); an OAuth token, a login-as session or one opened
// by a verification link was never given the password by the person using it.
export const requireFreshAuthentication = async (
  request: FastifyRequest,
  ctx: Pick<AppContext, 'jwtSecret' | 'now'>,
): Promise<void> => {
  const actor = request.actor;
  if (!actorMay(actor, 'fresh-authentication')) {
    throw new ApiError('unauthorized', freshAuthenticationRequiredMessage);
  }
  const { claims } = await currentSession(request, ctx);
  if (ctx.now().getTime() - claims.authTime >= reauthenticationWindowMs) {
    throw new ApiError('unauthorized', freshAuthenticationRequiredMessage);
  }
};
