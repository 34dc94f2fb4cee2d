import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupClosedMessage } from '@flotilla/shared/auth/signup-mode';
import { socialAuthMessages } from '@flotilla/shared/social-auth/social-providers';
import {
  signInThrough,
  type SocialWorld,
  startSocialWorld,
} from '../../test-support/social-auth-world.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

describe('social sign-in where sign-up is closed', () => {
  let world: SocialWorld;
  beforeAll(async () => {
    world = await startSocialWorld({ signup: 'closed' });
    world.google.addAccount('g-new', { email: 'new@example.com', emailVerified: true });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('creates no account for a new address', async () => {
    const response = await signInThrough(world, 'google', 'g-new');
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(signupClosedMessage);
    const { rows } = await world.server.db.query(
      `SELECT 1 FROM "user" WHERE "email" = 'new@example.com'`,
    );
    expect(rows).toHaveLength(0);
  });
});

describe('social sign-in without configured providers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('offers none and answers every provider route 404 in words', async () => {
    const config = await (await fetch(`${server.url}/config`)).json();
    expect(config).toMatchObject({ supportedSocialProviders: [] });
    const start = await fetch(`${server.url}/auth/github`, { redirect: 'manual' });
    expect(start.status).toBe(404);
    expect(await start.text()).toContain(socialAuthMessages.notConfigured('GitHub'));
    expect(start.headers.getSetCookie()).toEqual([]);
  });
});
