import {
  tokenCheckEveryMs,
  tokenRefreshAfterAuthMs,
  tokenRefreshEveryMs,
} from '@flotilla/shared/constants/limits';
import type { Clock, TimerHandle } from './clock.js';
import { FlotillaApiError, FlotillaSessionError } from './errors.js';
import type { RequestFn } from './request.js';
import { decodeSessionToken, isJwt, isSessionExpired, type Session } from './session-token.js';
import type { TokenStorage } from './token-storage.js';

export type { Session } from './session-token.js';

// GET /actor/v1/whoami: `id` is the actor id, `actorTypeId` the user, fleet or device id.
export type Whoami =
  | { id: number; actorType: 'user'; actorTypeId: number; username: string; email: string | null }
  | { id: number; actorType: 'application'; actorTypeId: number; slug: string }
  | { id: number; actorType: 'device'; actorTypeId: number; uuid: string };

export type LoginCredentials = { email: string; password: string };

// A sign-up. The invitation fields are passed through for the server.
export type Registration = {
  email: string;
  password: string;
  captchaResponse?: string;
  hasDisabledNewsletter?: boolean;
  username?: string;
  invitationType?: 'organization' | 'application';
  invitationToken?: string;
};

// Why the last logout happened: asked for, the token expired, or the server refused the session.
export type LogoutReason = 'user' | 'expired' | 'invalid';

export type SessionListener = (session: Session | null) => void;

export type AuthApi = {
  login(credentials: LoginCredentials): Promise<Session>;
  register(registration: Registration): Promise<Session>;
  logout(): void;
  getToken(): string | null;
  // The decoded session token; null when logged out or holding an API key.
  session(): Session | null;
  // Memoised until the token changes.
  whoami(): Promise<Whoami>;
  refreshToken(): Promise<Session>;
  loginWithToken(token: string): Promise<Session>;
  // Called on login, logout and refresh.
  subscribe(listener: SessionListener): () => void;
  // Checks the token every second: logs out when it expired, refreshes it when due.
  startTokenWatch(): () => void;
  lastLogoutReason(): LogoutReason | null;
};

export type AuthController = AuthApi & {
  // Every 401 a request gets comes here (see createRequest).
  handleUnauthorized(error: FlotillaApiError): void;
};

export type AuthDeps = { storage: TokenStorage; clock: Clock; request: RequestFn };

// Server texts of a 401 that mean the token itself was refused.
const expiredTokenMessage = 'The token expired';
const refusedSessionMessages = ['Your session has expired', 'Malformed token'];

const pathOnly = (path: string): string => path.split('?')[0] ?? path;

const tokenFromBody = (body: unknown): string => {
  const token = typeof body === 'string' ? body.trim() : '';
  if (token === '') throw new FlotillaSessionError('malformed');
  return token;
};

// The first refresh is due 20 minutes after authTime; a token issued at or after that moment
// (compared in whole seconds, the precision of iat) was refreshed already, and the next refresh
// is due an hour after it was issued.
export const nextRefreshAt = (session: Session): number => {
  const firstRefreshAt = session.authTime + tokenRefreshAfterAuthMs;
  return Math.floor(session.issuedAt / 1000) >= Math.floor(firstRefreshAt / 1000)
    ? session.issuedAt + tokenRefreshEveryMs
    : firstRefreshAt;
};

export const createAuth = ({ storage, clock, request }: AuthDeps): AuthController => {
  const listeners = new Set<SessionListener>();
  let decoded: { token: string; session: Session | null } | null = null;
  let whoamiMemo: { token: string; promise: Promise<Whoami> } | null = null;
  let refreshing: Promise<Session> | null = null;
  let verifying = false;
  let lastRefreshAttemptAt: number | null = null;
  let logoutReason: LogoutReason | null = null;

  const getToken = () => storage.get();

  // Decoded once per token, so callers get the same object until the token changes.
  const session = (): Session | null => {
    const token = getToken();
    if (token === null || token === '') return null;
    if (decoded?.token !== token) decoded = { token, session: decodeSessionToken(token) };
    return decoded.session;
  };

  const notify = () => {
    const current = session();
    for (const listener of [...listeners]) listener(current);
  };

  const logout = (reason: LogoutReason) => {
    const hadToken = getToken() !== null;
    storage.clear();
    whoamiMemo = null;
    lastRefreshAttemptAt = null;
    logoutReason = reason;
    if (hadToken || reason === 'user') notify();
  };

  // Stores a token the server just issued (or the user brought) and announces the session.
  const adopt = (token: string, options: { refreshed?: boolean } = {}): Session => {
    const adopted = decodeSessionToken(token);
    if (adopted === null) throw new FlotillaSessionError('malformed');
    if (isSessionExpired(adopted, clock.now())) throw new FlotillaSessionError('expired');
    storage.set(token);
    if (options.refreshed !== true) {
      lastRefreshAttemptAt = null;
      logoutReason = null;
    }
    notify();
    return session() ?? adopted;
  };

  const whoami = (): Promise<Whoami> => {
    const token = getToken();
    if (token === null || token === '') {
      return Promise.reject(new FlotillaSessionError('not-logged-in'));
    }
    if (whoamiMemo?.token === token) return whoamiMemo.promise;
    const promise = request<Whoami>({ path: '/actor/v1/whoami' });
    const memo = { token, promise };
    whoamiMemo = memo;
    promise.catch(() => {
      if (whoamiMemo === memo) whoamiMemo = null;
    });
    return promise;
  };

  // "Is the session still good?" after a 401 that may just be a permission refusal: whoami
  // answers 401 only when the token itself is refused, which logs out (handleUnauthorized).
  const verifySession = () => {
    if (verifying || getToken() === null) return;
    verifying = true;
    whoamiMemo = null;
    whoami()
      .catch(() => undefined)
      .finally(() => {
        verifying = false;
      });
  };

  const refresh = async (token: string): Promise<Session> => {
    let body: unknown;
    try {
      body = await request<unknown>({ path: '/user/v1/refresh-token' });
    } catch (error) {
      if (error instanceof FlotillaApiError && error.status === 401 && getToken() === token) {
        const current = session();
        logout(current !== null && isSessionExpired(current, clock.now()) ? 'expired' : 'invalid');
      }
      throw error;
    }
    // Logged out or in as someone else meanwhile: this answer belongs to a session now gone.
    if (getToken() !== token) {
      const current = session();
      if (current === null) throw new FlotillaSessionError('not-logged-in');
      return current;
    }
    return adopt(tokenFromBody(body), { refreshed: true });
  };

  const refreshToken = (): Promise<Session> => {
    const token = getToken();
    if (token === null || !isJwt(token)) {
      return Promise.reject(new FlotillaSessionError('not-logged-in'));
    }
    if (refreshing === null) {
      const pending = refresh(token);
      refreshing = pending;
      const settle = () => {
        if (refreshing === pending) refreshing = null;
      };
      pending.then(settle, settle);
    }
    return refreshing;
  };

  const checkToken = () => {
    const current = session();
    if (current === null) return;
    const now = clock.now();
    if (isSessionExpired(current, now)) {
      logout('expired');
      return;
    }
    if (refreshing !== null || now < nextRefreshAt(current)) return;
    // At most one attempt an hour, whatever its outcome (a 401 logs out, see refresh).
    if (lastRefreshAttemptAt !== null && now - lastRefreshAttemptAt < tokenRefreshEveryMs) return;
    lastRefreshAttemptAt = now;
    refreshToken().catch(() => undefined);
  };

  return {
    async login({ email, password }) {
      const body = await request<unknown>({
        method: 'POST',
        path: '/login_',
        body: { username: email, password },
        auth: false,
      });
      return adopt(tokenFromBody(body));
    },

    async register(registration) {
      const body = await request<unknown>({
        method: 'POST',
        path: '/user/register',
        auth: false,
        body: {
          email: registration.email,
          password: registration.password,
          ...(registration.captchaResponse !== undefined
            ? { 'g-recaptcha-response': registration.captchaResponse }
            : {}),
          ...(registration.hasDisabledNewsletter !== undefined
            ? { has_disabled_newsletter: registration.hasDisabledNewsletter }
            : {}),
          ...(registration.username !== undefined ? { username: registration.username } : {}),
          ...(registration.invitationType !== undefined
            ? { invitationType: registration.invitationType }
            : {}),
          ...(registration.invitationToken !== undefined
            ? { invitationToken: registration.invitationToken }
            : {}),
        },
      });
      return adopt(tokenFromBody(body));
    },

    logout: () => logout('user'),
    getToken,
    session,
    whoami,
    refreshToken,

    async loginWithToken(token) {
      return adopt(tokenFromBody(token));
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    startTokenWatch() {
      let handle: TimerHandle | null = null;
      let stopped = false;
      const tick = () => {
        checkToken();
        if (!stopped) handle = clock.setTimer(tick, tokenCheckEveryMs);
      };
      tick();
      return () => {
        stopped = true;
        if (handle !== null) clock.clearTimer(handle);
      };
    },

    lastLogoutReason: () => logoutReason,

    handleUnauthorized(error) {
      if (!error.sentToken) return;
      const path = pathOnly(error.path);
      // These flows handle their own 401s (bad credentials, a refused refresh).
      if (path === '/login_' || path === '/user/register') return;
      if (path === '/user/v1/refresh-token' && error.method === 'GET') return;
      // An answer to a token since replaced (a request in flight across a new login) says
      // nothing about the session now.
      if (!error.answered(getToken())) return;
      const current = session();
      if (
        (current !== null && isSessionExpired(current, clock.now())) ||
        error.message === expiredTokenMessage
      ) {
        logout('expired');
      } else if (refusedSessionMessages.includes(error.message) || path === '/actor/v1/whoami') {
        logout('invalid');
      } else {
        verifySession();
      }
    },
  };
};
