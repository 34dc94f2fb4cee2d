import type { Actor } from '../auth/actor.js';

// Who may call a route. Every route declares one (enforced at registration in create-app.ts);
// finer, row-level rules are applied by the handler or the OData engine.
export type RouteAccess =
  | 'public' // anyone, with or without a token
  | 'user' // a signed-in user (session or user API key) whose second factor is done
  | 'user-pending-2fa' // a signed-in user, second factor possibly still pending
  | 'device' // a device key
  | 'provisioning' // a fleet provisioning key
  | 'any-actor'; // any authenticated caller

export const allows = (access: RouteAccess, actor: Actor): boolean => {
  switch (access) {
    case 'public':
      return true;
    case 'user':
      return actor.kind === 'user' && !actor.twoFactorPending;
    case 'user-pending-2fa':
      return actor.kind === 'user';
    case 'device':
      return actor.kind === 'device';
    case 'provisioning':
      return actor.kind === 'application';
    case 'any-actor':
      return actor.kind !== 'anonymous' && !(actor.kind === 'user' && actor.twoFactorPending);
  }
};
