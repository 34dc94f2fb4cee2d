import {
  type SessionCapability,
  type SessionKind,
  sessionKindLabels,
  sessionMay,
} from '@flotilla/shared/auth/session-kinds';
import { forbidden } from '../errors/api-error.js';
import type { Actor } from './actor.js';

// The kind of credential an actor came with (shared/auth/session-kinds.ts); none for a guest.
export const sessionKindOf = (actor: Actor): SessionKind | undefined => {
  switch (actor.kind) {
    case 'anonymous':
      return undefined;
    case 'device':
      return 'device-key';
    case 'application':
      return 'provisioning-key';
    case 'user':
      if (actor.via === 'api-key') return 'user-api-key';
      if (actor.twoFactorPending) return 'two-factor-pending';
      if (actor.oauthAuthorizationId !== undefined) return 'oauth-token';
      if (actor.actualUserId !== undefined) return 'login-as';
      return 'password-session';
  }
};

const doing: Record<SessionCapability, string> = {
  'fresh-authentication': 'count as a recent password',
  'manage-api-keys': 'create or revoke API keys',
  'manage-ssh-keys': 'add or remove SSH keys',
  'manage-two-factor': 'change two-factor authentication',
  'change-password': 'change the password',
  'change-email': 'change the e-mail address',
  'delete-account': 'delete the account',
  'authorize-oauth-apps': 'authorize applications',
  'log-in-as': 'sign in as another user',
  'end-other-sessions': 'sign the account out elsewhere',
  'link-accounts': 'link or unlink sign-in accounts',
  refresh: 'be refreshed',
};

// Whether the actor's kind of session may do it.
export const actorMay = (actor: Actor, capability: SessionCapability): boolean => {
  const kind = sessionKindOf(actor);
  return kind !== undefined && sessionMay(kind, capability);
};

// Refuses (401, the API's answer to a forbidden action) what the caller's kind of session may not
// do, saying which kind and what.
export const requireSessionMay = (actor: Actor, capability: SessionCapability): void => {
  const kind = sessionKindOf(actor);
  if (kind === undefined) throw forbidden();
  if (!sessionMay(kind, capability)) {
    throw forbidden(`A session of kind "${sessionKindLabels[kind]}" cannot ${doing[capability]}`);
  }
};

// The same for a user's session or key only: routes open to device and provisioning keys keep
// their own rules for those (a provisioning key's device-key exchange, a device's registration).
export const requireUserSessionMay = (actor: Actor, capability: SessionCapability): void => {
  if (actor.kind === 'user') requireSessionMay(actor, capability);
};
