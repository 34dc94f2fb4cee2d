import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { nextRefreshAt, type Session } from './auth.js';
import { errorText, FlotillaApiError, FlotillaSessionError } from './errors.js';
import { type FakeCall, sessionJwt } from './test-support/fake-server.js';
import { createTestClient } from './test-support/test-client.js';

const minute = 60_000;
const hour = 60 * minute;

const bearerOf = (call: FakeCall): string | null =>
  call.headers.get('authorization')?.replace(/^Bearer /, '') ?? null;

const claimsOf = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<
    string,
    unknown
  >;

// A client against a fake auth server that issues tokens on the fake clock.
const setup = (token: string | null = null) => {
  const test = createTestClient(token);
  const { server, clock } = test;
  server.on('POST', '/login_', (call) => {
    const body = call.body as { username?: string; password?: string };
    return body.username === 'ada@example.com' && body.password === 'correct horse'
      ? { text: sessionJwt(clock.now()) }
      : { status: 401, text: 'Invalid login credentials' };
  });
  server.on('POST', '/user/register', () => ({ text: sessionJwt(clock.now(), { id: 9 }) }));
  server.on('GET', '/actor/v1/whoami', (call) =>
    bearerOf(call) === null
      ? { status: 401, text: 'Unauthorized' }
      : {
          json: {
            id: 70,
            actorType: 'user',
            actorTypeId: 7,
            username: 'ada',
            email: 'ada@example.com',
          },
        },
  );
  server.on('GET', '/user/v1/refresh-token', (call) => {
    const sent = bearerOf(call);
    if (sent === null) return { status: 401, text: 'Unauthorized' };
    const { authTime } = claimsOf(sent);
    return { text: sessionJwt(clock.now(), { authTime }) };
  });
  const sessions: Array<Session | null> = [];
  test.client.auth.subscribe((session) => sessions.push(session));
  return { ...test, sessions };
};

const callsTo = (calls: FakeCall[], path: string) =>
  calls.filter((call) => call.url.pathname === path);

describe('login and register', () => {
  it('logs in with e-mail and password, storing the token and announcing the session', async () => {
    const { client, server, storage, sessions, clock } = setup();
    const session = await client.auth.login({
      email: 'ada@example.com',
      password: 'correct horse',
    });
    const [call] = callsTo(server.calls, '/login_');
    expect(call?.method).toBe('POST');
    expect(call?.body).toEqual({ username: 'ada@example.com', password: 'correct horse' });
    expect(call?.headers.get('authorization')).toBeNull();
    expect(storage.get()).toBe(client.auth.getToken());
    expect(session).toMatchObject({ userId: 7, authTime: clock.now(), permissions: [] });
    expect(client.auth.session()).toBe(session);
    expect(sessions).toEqual([session]);
  });

  it('raises bad credentials without storing anything', async () => {
    const { client, storage } = setup();
    const error = await client.auth
      .login({ email: 'ada@example.com', password: 'wrong' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FlotillaApiError);
    expect(errorText(error)).toBe('Invalid login credentials');
    expect(storage.get()).toBeNull();
  });

  it('registers with the captcha response and the newsletter choice', async () => {
    const { client, server } = setup();
    const session = await client.auth.register({
      email: 'new@example.com',
      password: 'long enough',
      captchaResponse: 'captcha',
      hasDisabledNewsletter: true,
    });
    const [call] = callsTo(server.calls, '/user/register');
    expect(call?.body).toEqual({
      email: 'new@example.com',
      password: 'long enough',
      'g-recaptcha-response': 'captcha',
      has_disabled_newsletter: true,
    });
    expect(call?.headers.get('authorization')).toBeNull();
    expect(session.userId).toBe(9);
  });

  it('logs in with a session token, refusing garbage and expired tokens', async () => {
    const { client, clock, storage } = setup();
    const token = sessionJwt(clock.now());
    expect((await client.auth.loginWithToken(token)).userId).toBe(7);
    expect(storage.get()).toBe(token);

    const malformed = await client.auth.loginWithToken('not a jwt').catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(FlotillaSessionError);
    expect((malformed as FlotillaSessionError).reason).toBe('malformed');
    const expired = await client.auth
      .loginWithToken(sessionJwt(clock.now() - 2 * hour, {}, 60))
      .catch((e: unknown) => e);
    expect((expired as FlotillaSessionError).reason).toBe('expired');
    expect(storage.get()).toBe(token);
  });

  it('logs out: clears the token, notifies and records why', async () => {
    const { client, clock, sessions } = setup(null);
    await client.auth.loginWithToken(sessionJwt(clock.now()));
    client.auth.logout();
    expect(client.auth.getToken()).toBeNull();
    expect(client.auth.session()).toBeNull();
    expect(sessions.at(-1)).toBeNull();
    expect(client.auth.lastLogoutReason()).toBe('user');
  });
});

describe('whoami', () => {
  it('is memoised until the token changes', async () => {
    const { client, server, clock } = setup(null);
    await client.auth.loginWithToken(sessionJwt(clock.now()));
    const first = await client.auth.whoami();
    await client.auth.whoami();
    expect(first).toMatchObject({ actorType: 'user', actorTypeId: 7, id: 70 });
    expect(callsTo(server.calls, '/actor/v1/whoami')).toHaveLength(1);
    expect(callsTo(server.calls, '/actor/v1/whoami')[0]?.headers.get('authorization')).toMatch(
      /^Bearer ey/,
    );

    await clock.advance(1000);
    await client.auth.loginWithToken(sessionJwt(clock.now()));
    await client.auth.whoami();
    expect(callsTo(server.calls, '/actor/v1/whoami')).toHaveLength(2);
  });

  it('fails without a request when logged out', async () => {
    const { client, server } = setup(null);
    const error = await client.auth.whoami().catch((caught: unknown) => caught);
    expect(errorText(error)).toBe('You have to log in');
    expect(server.calls).toHaveLength(0);
  });
});

describe('token watch', () => {
  it('logs out when the token expires', async () => {
    const { client, clock, sessions } = setup(null);
    await client.auth.loginWithToken(sessionJwt(clock.now(), {}, 10));
    const stop = client.auth.startTokenWatch();
    await clock.advance(9000);
    expect(client.auth.getToken()).not.toBeNull();
    await clock.advance(1000);
    expect(client.auth.getToken()).toBeNull();
    expect(sessions.at(-1)).toBeNull();
    expect(client.auth.lastLogoutReason()).toBe('expired');
    stop();
  });

  it('refreshes 20 minutes after authTime, then every hour', async () => {
    const { client, clock, server } = setup(null);
    const loggedInAt = clock.now();
    await client.auth.login({ email: 'ada@example.com', password: 'correct horse' });
    const stop = client.auth.startTokenWatch();
    const refreshes = () => callsTo(server.calls, '/user/v1/refresh-token').length;

    await clock.advance(20 * minute - 1000);
    expect(refreshes()).toBe(0);
    await clock.advance(1000);
    expect(refreshes()).toBe(1);
    const refreshed = client.auth.session();
    expect(refreshed?.issuedAt).toBe(loggedInAt + 20 * minute);
    // The refresh keeps authTime: the next one is an hour after the new token was issued.
    expect(refreshed?.authTime).toBe(loggedInAt);

    await clock.advance(hour - 1000);
    expect(refreshes()).toBe(1);
    await clock.advance(1000);
    expect(refreshes()).toBe(2);
    await clock.advance(hour);
    expect(refreshes()).toBe(3);
    stop();
    await clock.advance(2 * hour);
    expect(refreshes()).toBe(3);
  });

  it('refreshes at once a token found already due, but at most once an hour on failures', async () => {
    const { client, clock, server } = setup(sessionJwt(Date.UTC(2026, 0, 1) - 3 * hour));
    server.on('GET', '/user/v1/refresh-token', { status: 500, text: 'Internal server error' });
    const stop = client.auth.startTokenWatch();
    await clock.advance(0);
    expect(callsTo(server.calls, '/user/v1/refresh-token')).toHaveLength(1);
    await clock.advance(hour - 1000);
    expect(callsTo(server.calls, '/user/v1/refresh-token')).toHaveLength(1);
    await clock.advance(1000);
    expect(callsTo(server.calls, '/user/v1/refresh-token')).toHaveLength(2);
    expect(client.auth.getToken()).not.toBeNull();
    stop();
  });

  it('logs out when the refresh is refused', async () => {
    const { client, clock, server, sessions } = setup(null);
    await client.auth.login({ email: 'ada@example.com', password: 'correct horse' });
    server.on('GET', '/user/v1/refresh-token', { status: 401, text: 'Your session has expired' });
    const error = await client.auth.refreshToken().catch((caught: unknown) => caught);
    expect((error as FlotillaApiError).status).toBe(401);
    expect(client.auth.getToken()).toBeNull();
    expect(client.auth.lastLogoutReason()).toBe('invalid');
    expect(sessions.at(-1)).toBeNull();
    expect(clock.pendingTimers()).toBe(0);
  });

  it('drops a refreshed token that arrives after logout', async () => {
    const { client, clock, server } = setup(null);
    await client.auth.login({ email: 'ada@example.com', password: 'correct horse' });
    let answer: (() => void) | undefined;
    server.on(
      'GET',
      '/user/v1/refresh-token',
      () =>
        new Promise((resolve) => {
          answer = () => resolve({ text: sessionJwt(clock.now()) });
        }),
    );
    const refreshing = client.auth.refreshToken().catch((caught: unknown) => caught);
    await clock.advance(0);
    client.auth.logout();
    answer?.();
    expect(await refreshing).toBeInstanceOf(FlotillaSessionError);
    expect(client.auth.getToken()).toBeNull();
  });

  it('leaves API keys alone', async () => {
    const { client, clock, server } = setup('opaque-api-key');
    const stop = client.auth.startTokenWatch();
    await clock.advance(2 * hour);
    expect(client.auth.getToken()).toBe('opaque-api-key');
    expect(client.auth.session()).toBeNull();
    expect(server.calls).toHaveLength(0);
    stop();
  });

  it('computes the next refresh from authTime and issuedAt', () => {
    const base = { userId: 1, permissions: [], expiresAt: 0 };
    expect(nextRefreshAt({ ...base, authTime: 0, issuedAt: 0 })).toBe(20 * minute);
    expect(nextRefreshAt({ ...base, authTime: 500, issuedAt: 20 * minute })).toBe(
      20 * minute + hour,
    );
  });
});

describe('401 answers', () => {
  it('log out when the token has expired', async () => {
    const { client, clock, server } = setup(null);
    await client.auth.loginWithToken(sessionJwt(clock.now(), {}, 10));
    await clock.advance(11_000);
    server.on('GET', '/v7/application', { status: 401, text: 'The token expired' });
    await client.request({ path: '/v7/application' }).catch(() => undefined);
    expect(client.auth.getToken()).toBeNull();
    expect(client.auth.lastLogoutReason()).toBe('expired');
  });

  it('log out when the server refuses the session', async () => {
    const { client, clock, server } = setup(null);
    await client.auth.loginWithToken(sessionJwt(clock.now()));
    server.on('GET', '/v7/application', { status: 401, text: 'Your session has expired' });
    await client.request({ path: '/v7/application' }).catch(() => undefined);
    expect(client.auth.getToken()).toBeNull();
    expect(client.auth.lastLogoutReason()).toBe('invalid');
  });

  it('check the session otherwise, keeping it when whoami still answers', async () => {
    const { client, clock, server } = setup(null);
    await client.auth.loginWithToken(sessionJwt(clock.now()));
    server.on('POST', '/v7/application', { status: 401, text: 'Unauthorized' });
    await client
      .request({ method: 'POST', path: '/v7/application', body: {} })
      .catch(() => undefined);
    await clock.advance(0);
    expect(callsTo(server.calls, '/actor/v1/whoami')).toHaveLength(1);
    expect(client.auth.getToken()).not.toBeNull();

    server.on('GET', '/actor/v1/whoami', { status: 401, text: 'Unauthorized' });
    await client
      .request({ method: 'POST', path: '/v7/application', body: {} })
      .catch(() => undefined);
    await clock.advance(0);
    expect(client.auth.getToken()).toBeNull();
    expect(client.auth.lastLogoutReason()).toBe('invalid');
  });

  it('leave a newer session alone when the 401 answered the token it replaced', async () => {
    const { client, clock, server } = setup(null);
    const first = sessionJwt(clock.now(), { id: 1 });
    await client.auth.loginWithToken(first);
    // The request leaves with the first token and is answered after a new login.
    let answer: (reply: { status: number; text: string }) => void = () => undefined;
    server.on(
      'GET',
      '/v7/application',
      () => new Promise<{ status: number; text: string }>((resolve) => (answer = resolve)),
    );
    const inFlight = client.request({ path: '/v7/application' }).catch((error: unknown) => error);
    await clock.advance(0);
    const second = sessionJwt(clock.now(), { id: 2 });
    await client.auth.loginWithToken(second);
    answer({ status: 401, text: 'Your session has expired' });
    const error = await inFlight;
    expect(error).toBeInstanceOf(FlotillaApiError);
    expect(client.auth.getToken()).toBe(second);
    expect(callsTo(server.calls, '/actor/v1/whoami')).toHaveLength(0);
    // The same answer to the current token still ends the session.
    server.on('GET', '/v7/application', { status: 401, text: 'Your session has expired' });
    await client.request({ path: '/v7/application' }).catch(() => undefined);
    expect(client.auth.getToken()).toBeNull();
    expect(client.auth.lastLogoutReason()).toBe('invalid');
  });

  it('never show the token in a logged or serialised error', async () => {
    const { client, clock, server } = setup(null);
    const token = sessionJwt(clock.now());
    await client.auth.loginWithToken(token);
    server.on('GET', '/v7/device', { status: 401, text: 'Unauthorized' });
    const error = await client.request({ path: '/v7/device' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FlotillaApiError);
    expect(JSON.stringify(error)).not.toContain(token);
    expect(inspect(error)).not.toContain(token);
  });
});
