import {
  freshAuthenticationRequiredMessage,
  reauthenticationWindowMs,
} from '@flotilla/shared/auth/reauthentication';
import { socialAuthMessages } from '@flotilla/shared/social-auth/social-providers';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  answerOf,
  flowCookieOf,
  signInThrough,
  type SocialWorld,
  startSocialWorld,
  throughProvider,
} from '../../test-support/social-auth-world.js';

// Re-authentication of an account without a password through the provider it is linked to,
// against the local OpenID Connect provider; the server's clock is a fake one (the provider's
// own checks keep the real time, which the fake one starts from).
let world: SocialWorld;
let clock: Date;

const tick = (ms: number): void => {
  clock = new Date(clock.getTime() + ms);
};

beforeAll(async () => {
  clock = new Date();
  world = await startSocialWorld({}, { now: () => clock });
  world.google.addAccount('g-pat', { email: 'pat@example.com', emailVerified: true });
  world.google.addAccount('g-quinn', { email: 'quinn@example.com', emailVerified: true });
  world.google.addAccount('g-stranger', { email: 'stranger@example.com', emailVerified: true });
});

afterAll(async () => {
  await world?.close();
});

const signUp = async (accountId: string): Promise<string> => {
  const answer = await answerOf(await signInThrough(world, 'google', accountId));
  if (answer.outcome !== 'signed-in') throw new Error(`Expected a sign-in, got ${answer.outcome}`);
  return answer.token;
};

const createUserKey = (token: string) =>
  fetch(`${world.server.url}/api-key/user/full`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'ci' }),
  });

const startReauth = async (token: string, provider: 'google' | 'github' = 'google') =>
  fetch(`${world.server.url}/auth/${provider}/reauth`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });

// The dialog's round: start with the session, pass the provider as `accountId`, hand the answer
// over with the same browser's cookie and the session.
const reauthThrough = async (token: string, accountId: string, exchangeToken = token) => {
  const started = await startReauth(token);
  expect(started.status, await started.clone().text()).toBe(200);
  const { url } = z.object({ url: z.string() }).parse(await started.json());
  const cookie = flowCookieOf(started);
  world.google.signInAs(accountId);
  const query = await throughProvider('google', url);
  return fetch(`${world.server.url}/auth/google/exchange`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${exchangeToken}`,
      cookie,
    },
    body: JSON.stringify({ query }),
  });
};

const expectRefused = async (response: Response, status: number, text: string) => {
  const body = await response.text();
  expect(response.status, body).toBe(status);
  expect(body).toContain(text);
};

describe('re-authentication through a linked provider', () => {
  it('lets an account without a password confirm itself and act, until the window ends', async () => {
    const token = await signUp('g-pat');
    tick(reauthenticationWindowMs);
    await expectRefused(await createUserKey(token), 401, freshAuthenticationRequiredMessage);

    const answer = await answerOf(await reauthThrough(token, 'g-pat'));
    if (answer.outcome !== 'reauthenticated') throw new Error(`Got ${answer.outcome}`);
    expect(decodeJwt(answer.token)).toMatchObject({
      id: decodeJwt(token).id,
      authTime: clock.getTime(),
    });
    expect((await createUserKey(answer.token)).status).toBe(200);

    tick(reauthenticationWindowMs);
    await expectRefused(await createUserKey(answer.token), 401, freshAuthenticationRequiredMessage);
  });

  it('refuses another provider identity than the linked one, and renews nothing', async () => {
    const token = await signUp('g-quinn');
    tick(reauthenticationWindowMs);
    const response = await reauthThrough(token, 'g-stranger');
    await expectRefused(response, 400, socialAuthMessages.reauthWrongAccount('Google'));
    // Someone else's linked account is refused the same way.
    await signUp('g-pat');
    await expectRefused(
      await reauthThrough(token, 'g-pat'),
      400,
      socialAuthMessages.reauthWrongAccount('Google'),
    );
  });

  it("refuses an answer handed over with another user's session", async () => {
    const pat = await signUp('g-pat');
    const quinn = await signUp('g-quinn');
    await expectRefused(
      await reauthThrough(pat, 'g-pat', quinn),
      400,
      socialAuthMessages.reauthWrongSession,
    );
  });

  it('is refused for a provider the account is not linked to, and to guests', async () => {
    const token = await signUp('g-pat');
    await expectRefused(
      await startReauth(token, 'github'),
      400,
      socialAuthMessages.reauthNotLinked('GitHub'),
    );
    expect((await fetch(`${world.server.url}/auth/google/reauth`, { method: 'POST' })).status).toBe(
      401,
    );
  });
});
