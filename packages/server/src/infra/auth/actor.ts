// Who is calling. Resolved once per request from the Bearer token (session JWT or API key).
export type Actor =
  | { kind: 'anonymous' }
  | {
      kind: 'user';
      userId: number;
      actorId: number;
      // Platform permissions such as admin.home and support.home.
      platformPermissions: readonly string[];
      via: 'session' | 'api-key';
      // A session whose second factor is still pending may do nothing but complete it.
      twoFactorPending: boolean;
      // A platform administrator signed in as this user (login-as): the administrator's user id.
      // Every request of such a session is logged with it (request-log.ts).
      actualUserId?: number;
      // An OAuth application's token: the user's authorization of that application (its id).
      oauthAuthorizationId?: number;
      // The account must verify its e-mail address and has not yet: it may do nothing but what
      // verification needs (infra/http/email-verification-gate.ts).
      emailVerificationPending: boolean;
    }
  | { kind: 'application'; applicationId: number; actorId: number }
  | { kind: 'device'; deviceId: number; actorId: number; applicationId: number };

export const anonymous: Actor = { kind: 'anonymous' };
