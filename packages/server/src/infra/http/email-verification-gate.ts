import type { FastifyRequest } from 'fastify';
import { anonymous } from '../auth/actor.js';
import { ApiError } from '../errors/api-error.js';
import { parseODataRequest } from '../odata/parse-request.js';
import type { RouteAccess } from './access.js';

// What a user who must verify their e-mail address and has not yet may do on a route
// ("pending": resending the mail stays allowed). Declared on the few routes that need more than
// the default (`config.unverifiedUsers`):
// - 'allowed': the route serves them as usual (who am I);
// - 'own-account': the /v7 API, limited to reading their own user and profile rows and to
//   balena-sdk's requestVerificationEmail (PATCH user(<own id>) {has_been_sent_verification_email}).
// Otherwise: routes open to a pending second factor (refresh, second factor) serve them, public
// routes answer them as a guest, and every other route refuses them.
export type UnverifiedUserAccess = 'allowed' | 'own-account';

// 401 as any refused permission on /v7 (wire contract), in words that say what to do. balena-sdk
// and our console read a 401 whose text is not a refused token as "not allowed", check the session
// with whoami (which answers) and stay signed in.
export const verifyEmailFirstMessage =
  'Verify your e-mail address first: open the link we sent you, or ask for a new one';

const refuse = (): never => {
  throw new ApiError('unauthorized', verifyEmailFirstMessage);
};

const ownAccountResources = new Set(['user', 'user_profile']);
const verificationRequestField = 'has_been_sent_verification_email';

const isVerificationRequest = (request: FastifyRequest, userId: number): boolean => {
  const path = (request.raw.url ?? '').split('?')[0];
  if (path !== `/v7/user(${userId})`) return false;
  const body: unknown = request.body;
  return (
    typeof body === 'object' &&
    body !== null &&
    Object.keys(body).length === 1 &&
    verificationRequestField in body
  );
};

const isOwnAccountRead = (request: FastifyRequest): boolean => {
  const parsed = parseODataRequest((request.raw.url ?? '').slice('/v7'.length));
  // The usual row rules apply (their own row; others' ids and usernames only where they share an
  // organization, fleet or team, which a new account does not); no expansion reaches further.
  return (
    ownAccountResources.has(parsed.resource) &&
    parsed.action === undefined &&
    parsed.options.$expand === undefined
  );
};

// Runs once per request after the body is parsed (create-app.ts): leaves the actor as it is,
// answers the request as a guest's, or refuses it.
export const gateUnverifiedUser = (
  request: FastifyRequest,
  access: RouteAccess,
  declared: UnverifiedUserAccess | undefined,
): void => {
  const actor = request.actor;
  if (actor.kind !== 'user' || !actor.emailVerificationPending) return;
  if (declared === 'allowed') return;
  if (declared === 'own-account') {
    const method = request.method;
    if ((method === 'GET' || method === 'HEAD') && isOwnAccountRead(request)) return;
    if (method === 'PATCH' && isVerificationRequest(request, actor.userId)) return;
    refuse();
  }
  if (access === 'user-pending-2fa') return;
  if (access === 'public') {
    request.actor = anonymous;
    return;
  }
  refuse();
};
