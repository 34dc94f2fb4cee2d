import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { socialAuthMessages } from '@flotilla/shared/social-auth/social-providers';
import {
  answerOf,
  exchange,
  signInThrough,
  type SocialWorld,
  startAt,
  startSocialWorld,
  throughProvider,
  userIdOf,
} from '../../test-support/social-auth-world.js';

let world: SocialWorld;

beforeAll(async () => {
  world = await startSocialWorld();
  world.google.addAccount('g-alice', { email: 'alice@example.com', emailVerified: true });
  world.google.addAccount('g-bob', { email: 'Bob@Example.com', emailVerified: true });
  world.google.addAccount('g-eve', { email: 'eve@example.com', emailVerified: false });
  world.githubOAuth.addAccount('gh-carol', {});
  world.githubApi.setUser('gh-carol', {
    id: 4101,
    login: 'carol-codes',
    emails: [
      { email: 'carol.elsewhere@example.com', primary: true, verified: true },
      { email: 'carol@example.com', primary: false, verified: true },
    ],
  });
  world.githubOAuth.addAccount('gh-dan', {});
  world.githubApi.setUser('gh-dan', {
    id: 4102,
    login: 'dan',
    emails: [{ email: 'dan@example.com', primary: true, verified: false }],
  });
});

afterAll(async () => {
  await world?.close();
});

const register = async (email: string, password: string): Promise<string> => {
  const response = await fetch(`${world.server.url}/user/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.text();
};

const linksOf = async (userId: number) =>
  (
    await world.server.db.query<{ id: number; provider: string; display_name: string }>(
      `SELECT "id", "provider", "display_name" FROM "social_service_account"
       WHERE "belongs_to__user" = $1 ORDER BY "id"`,
      [userId],
    )
  ).rows;

const unlink = (token: string, id: number) =>
  fetch(`${world.server.url}/v7/social_service_account(${id})`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });

const errorOf = async (response: Response, status: number): Promise<string> => {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return text;
};

describe('social sign-in', () => {
  it('lists the configured providers in GET /config', async () => {
    const response = await fetch(`${world.server.url}/config`);
    expect(await response.json()).toMatchObject({ supportedSocialProviders: ['github', 'google'] });
  });

  it('signs a new verified address up, without a password, then signs the same account in', async () => {
    const first = await answerOf(await signInThrough(world, 'google', 'g-alice'));
    if (first.outcome !== 'signed-in') throw new Error(`Expected a sign-in, got ${first.outcome}`);
    const userId = userIdOf(first.token);
    const { rows } = await world.server.db.query<{
      email: string;
      is_verified: boolean;
      password_hash: string | null;
    }>('SELECT "email", "is_verified", "password_hash" FROM "user" WHERE "id" = $1', [userId]);
    expect(rows[0]).toEqual({ email: 'alice@example.com', is_verified: true, password_hash: null });
    expect(await linksOf(userId)).toMatchObject([
      { provider: 'google', display_name: 'alice@example.com' },
    ]);

    const again = await answerOf(await signInThrough(world, 'google', 'g-alice'));
    if (again.outcome !== 'signed-in') throw new Error(`Expected a sign-in, got ${again.outcome}`);
    expect(userIdOf(again.token)).toBe(userId);
  });

  it('refuses an address the provider has not verified, and creates nothing', async () => {
    const text = await errorOf(await signInThrough(world, 'google', 'g-eve'), 400);
    expect(text).toContain(socialAuthMessages.unverifiedEmail('Google'));
    const { rows } = await world.server.db.query(
      `SELECT 1 FROM "user" WHERE "email" = 'eve@example.com'`,
    );
    expect(rows).toHaveLength(0);
  });

  it("refuses GitHub's unverified primary address", async () => {
    const text = await errorOf(await signInThrough(world, 'github', 'gh-dan'), 400);
    expect(text).toContain(socialAuthMessages.unverifiedEmail('GitHub'));
  });

  it('refuses an answer whose state is not the one this browser started', async () => {
    world.google.signInAs('g-alice');
    const mine = await startAt(world, 'google');
    const query = await throughProvider('google', mine.providerUrl);
    const tampered = new URLSearchParams(query);
    tampered.set('state', 'someone-elses-state');
    const text = await errorOf(
      await exchange(world, 'google', mine.cookie, tampered.toString()),
      400,
    );
    expect(text).toContain(socialAuthMessages.stateMismatch);

    // Another browser's started flow (its cookie) does not accept this answer either.
    const other = await startAt(world, 'google');
    const crossed = await errorOf(await exchange(world, 'google', other.cookie, query), 400);
    expect(crossed).toContain(socialAuthMessages.stateMismatch);

    // Nor does a browser that started nothing.
    const none = await errorOf(await exchange(world, 'google', undefined, query), 400);
    expect(none).toContain(socialAuthMessages.flowExpired);
  });

  it('links an existing account by e-mail only once it proves itself with its password', async () => {
    const bobToken = await register('bob@example.com', 'bob-password-1');
    const bobId = userIdOf(bobToken);
    const answer = await answerOf(await signInThrough(world, 'google', 'g-bob'));
    if (answer.outcome !== 'link-required')
      throw new Error(`Expected a link, got ${answer.outcome}`);
    expect(answer).toMatchObject({ email: 'Bob@Example.com', hasPassword: true });
    expect(await linksOf(bobId)).toEqual([]);

    const confirm = (password: string) =>
      fetch(`${world.server.url}/auth/google/link-confirm`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ linkToken: answer.linkToken, password }),
      });
    expect(await errorOf(await confirm('not-bobs-password'), 400)).toContain(
      'Invalid login credentials',
    );
    expect(await linksOf(bobId)).toEqual([]);
    // A pending link for one provider is not one for another.
    const wrongProvider = await fetch(`${world.server.url}/auth/github/link-confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ linkToken: answer.linkToken, password: 'bob-password-1' }),
    });
    expect(await errorOf(wrongProvider, 400)).toContain(socialAuthMessages.linkExpired);

    const confirmed = await answerOf(await confirm('bob-password-1'));
    if (confirmed.outcome !== 'signed-in') throw new Error('Expected a sign-in');
    expect(userIdOf(confirmed.token)).toBe(bobId);
    expect(await linksOf(bobId)).toMatchObject([{ provider: 'google' }]);

    const next = await answerOf(await signInThrough(world, 'google', 'g-bob'));
    if (next.outcome !== 'signed-in') throw new Error(`Expected a sign-in, got ${next.outcome}`);
    expect(userIdOf(next.token)).toBe(bobId);
  });

  it('links GitHub from a signed-in session, and refuses the link to another account', async () => {
    const carolToken = await register('carol@example.com', 'carol-password-1');
    const carolId = userIdOf(carolToken);
    const linkStart = async (token: string) => {
      const response = await fetch(`${world.server.url}/auth/github/link`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
      const { url } = z.object({ url: z.string() }).parse(await response.json());
      const cookie = (response.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
      return { url, cookie };
    };
    world.githubOAuth.signInAs('gh-carol');
    const started = await linkStart(carolToken);
    const query = await throughProvider('github', started.url);
    expect(await answerOf(await exchange(world, 'github', started.cookie, query))).toEqual({
      outcome: 'linked',
    });
    expect(await linksOf(carolId)).toMatchObject([
      { provider: 'github', display_name: 'carol-codes' },
    ]);
    const signedIn = await answerOf(await signInThrough(world, 'github', 'gh-carol'));
    if (signedIn.outcome !== 'signed-in') throw new Error('Expected a sign-in');
    expect(userIdOf(signedIn.token)).toBe(carolId);

    const frankToken = await register('frank@example.com', 'frank-password-1');
    const again = await linkStart(frankToken);
    const frankQuery = await throughProvider('github', again.url);
    const text = await errorOf(await exchange(world, 'github', again.cookie, frankQuery), 409);
    expect(text).toContain(socialAuthMessages.linkedElsewhere('GitHub'));
    expect(await linksOf(userIdOf(frankToken))).toEqual([]);
    expect(world.githubApi.unexpected).toEqual([]);
  });

  it('unlinks, but never the last way into an account', async () => {
    const alice = await answerOf(await signInThrough(world, 'google', 'g-alice'));
    if (alice.outcome !== 'signed-in') throw new Error('Expected a sign-in');
    const [aliceLink] = await linksOf(userIdOf(alice.token));
    if (!aliceLink) throw new Error('Alice has no link');
    const refused = await errorOf(await unlink(alice.token, aliceLink.id), 409);
    expect(refused).toContain(socialAuthMessages.lastWayIn);
    expect(await linksOf(userIdOf(alice.token))).toHaveLength(1);

    // Someone else's link is not theirs to remove: nothing happens to it.
    const bob = await answerOf(await signInThrough(world, 'google', 'g-bob'));
    if (bob.outcome !== 'signed-in') throw new Error('Expected a sign-in');
    await unlink(bob.token, aliceLink.id);
    expect(await linksOf(userIdOf(alice.token))).toHaveLength(1);

    // Bob has a password: his link goes.
    const [bobLink] = await linksOf(userIdOf(bob.token));
    if (!bobLink) throw new Error('Bob has no link');
    const done = await unlink(bob.token, bobLink.id);
    expect(done.status, await done.text()).toBe(200);
    expect(await linksOf(userIdOf(bob.token))).toEqual([]);
  });

  it('lets only a password session link or unlink: never a user API key', async () => {
    const ginaToken = await register('gina@example.com', 'gina-password-1');
    const keyResponse = await fetch(`${world.server.url}/api-key/user/full`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ginaToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ci' }),
    });
    expect(keyResponse.status, await keyResponse.clone().text()).toBe(200);
    const apiKey = await keyResponse.text();
    const link = await fetch(`${world.server.url}/auth/google/link`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(link.status).toBe(401);
    expect(link.headers.getSetCookie()).toEqual([]);

    const ginaId = userIdOf(ginaToken);
    await world.server.db.query(
      `INSERT INTO "social_service_account" ("belongs_to__user", "provider", "remote_id", "display_name")
       VALUES ($1, 'google', 'g-gina', 'gina@example.com')`,
      [ginaId],
    );
    const [ginaLink] = await linksOf(ginaId);
    if (!ginaLink) throw new Error('Gina has no link');
    await errorOf(await unlink(apiKey, ginaLink.id), 401);
    expect(await linksOf(ginaId)).toHaveLength(1);
  });
});
