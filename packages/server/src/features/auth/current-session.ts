import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { type SessionClaims, verifySessionToken } from '../../infra/auth/session-token.js';
import { ApiError } from '../../infra/errors/api-error.js';

const bearerOf = (request: FastifyRequest): string | undefined => {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined;
};

export type CurrentSession = { userId: number; claims: SessionClaims };

// The calling session's user and claims, for routes that issue the session a new token (refresh,
// two-factor). An API key is no session: 401.
export const currentSession = async (
  request: FastifyRequest,
  ctx: Pick<AppContext, 'jwtSecret' | 'now'>,
): Promise<CurrentSession> => {
  const actor = request.actor;
  const token = bearerOf(request);
  if (actor.kind !== 'user' || actor.via !== 'session' || token === undefined) {
    throw new ApiError('unauthorized', 'Unauthorized');
  }
  // Already verified by the actor resolver; read again here for the claims to carry over.
  return {
    userId: actor.userId,
    claims: await verifySessionToken(ctx.jwtSecret, token, ctx.now()),
  };
};
