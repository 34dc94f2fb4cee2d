import {
  type SocialExchangeAnswer,
  type SocialProvider,
  socialAuthMessages,
  socialProviderLabels,
} from '@flotilla/shared/social-auth/social-providers';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { requireSessionMay } from '../../infra/auth/session-rules.js';
import { badRequest, unauthorized } from '../../infra/errors/api-error.js';
import { currentSession } from '../auth/current-session.js';
import { carriedClaims, issueSessionToken } from '../auth/issue-session-token.js';
import type { ProviderIdentity } from './provider-clients.js';
import { findLinkedUser, userHasProviderLink } from './social-account-store.js';

type Deps = Pick<AppContext, 'db' | 'jwtSecret' | 'now'>;

// Who may start a re-authentication through a provider: a session that may count as freshly
// authenticated (never an API key, OAuth token or login-as session), of an account linked to it.
export const reauthStarter = async (
  deps: Deps,
  request: FastifyRequest,
  provider: SocialProvider,
): Promise<number> => {
  const actor = request.actor;
  if (actor.kind !== 'user') throw unauthorized();
  requireSessionMay(actor, 'fresh-authentication');
  if (!(await userHasProviderLink(deps.db, actor.userId, provider))) {
    throw badRequest(socialAuthMessages.reauthNotLinked(socialProviderLabels[provider]));
  }
  return actor.userId;
};

// The provider's answer to a re-authentication: accepted only from the session of the user who
// started it, and only for the provider account linked to that user; the answer is that
// session's new token with authTime now, which opens the re-authentication window again.
export const reauthenticateWith = async (
  deps: Deps,
  request: FastifyRequest,
  provider: SocialProvider,
  identity: Pick<ProviderIdentity, 'remoteId'>,
  reauthUserId: number,
): Promise<SocialExchangeAnswer> => {
  const actor = request.actor;
  if (actor.kind !== 'user' || actor.userId !== reauthUserId) {
    // 400, not 401: the console reads a 401 as its own session ended.
    throw badRequest(socialAuthMessages.reauthWrongSession);
  }
  requireSessionMay(actor, 'fresh-authentication');
  const { claims } = await currentSession(request, deps);
  const owner = await findLinkedUser(deps.db, provider, identity.remoteId);
  if (owner !== reauthUserId) {
    request.log.info({ userId: reauthUserId, provider }, 'social re-authentication: other account');
    throw badRequest(socialAuthMessages.reauthWrongAccount(socialProviderLabels[provider]));
  }
  const token = await issueSessionToken(deps, deps.db, reauthUserId, {
    authTime: deps.now().getTime(),
    ...carriedClaims(claims),
  });
  request.log.info({ userId: reauthUserId, provider }, 'social re-authentication');
  return { outcome: 'reauthenticated', token };
};
