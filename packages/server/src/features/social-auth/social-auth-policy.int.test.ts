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

  it('offers none; a browser sent to one goes back to the login page with why', async () => {
    const config = await (await fetch(`${server.url}/config`)).json();
    expect(config).toMatchObject({ supportedSocialProviders: [] });
    const start = await fetch(`${server.url}/auth/github`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const location = new URL(start.headers.get('location') ?? '', server.url);
    expect(location.pathname).toBe('/login');
    expect(location.searchParams.get('social_error')).toBe(
      socialAuthMessages.notConfigured('GitHub'),
    );
    expect(start.headers.getSetCookie()).toEqual([]);
  });

  it('sends the browser back to the login page when the provider cannot be reached', async () => {
    const unreachable = await startTestServer({
      config: {
        socialAuth: {
          github: undefined,
          google: {
            clientId: 'flotilla',
            clientSecret: 'a-client-secret',
            // Nothing listens on port 9 of the loopback: discovery fails at once.
            issuer: 'http://127.0.0.1:9',
          },
        },
      },
    });
    try {
      const start = await fetch(`${unreachable.url}/auth/google`, { redirect: 'manual' });
      expect(start.status).toBe(302);
      const location = new URL(start.headers.get('location') ?? '', unreachable.url);
      expect(location.searchParams.get('social_error')).toBe(
        socialAuthMessages.providerUnavailable('Google'),
      );
    } finally {
      await unreachable.close();
    }
  });
});
