import { createFlotillaClient, type FlotillaClient } from '@flotilla/sdk/create-client';
import { errorText, FlotillaApiError } from '@flotilla/sdk/errors';
import { apiPagingLimit } from '@flotilla/shared/constants/limits';
import { startTestServer, type TestServer } from '@flotilla/server/test-support/test-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Our own SDK (what the console uses) against the real server.
describe('the Flotilla SDK against the server', () => {
  let server: TestServer;
  let client: FlotillaClient;
  beforeAll(async () => {
    server = await startTestServer();
    client = createFlotillaClient({ apiUrl: server.url });
  });
  afterAll(() => server.close());

  it('registers, reads its session and whoami, logs out and in', async () => {
    const session = await client.auth.register({
      email: 'sdk-user@example.com',
      password: 'sdk-password-1',
    });
    expect(session.userId).toBeGreaterThan(0);
    expect(client.auth.session()?.userId).toBe(session.userId);
    const whoami = await client.auth.whoami();
    expect(whoami).toMatchObject({
      actorType: 'user',
      actorTypeId: session.userId,
      email: 'sdk-user@example.com',
    });
    client.auth.logout();
    expect(client.auth.getToken()).toBeNull();
    await client.auth.login({ email: 'sdk-user@example.com', password: 'sdk-password-1' });
    expect(client.auth.session()?.userId).toBe(session.userId);
    const refreshed = await client.auth.refreshToken();
    expect(refreshed.userId).toBe(session.userId);
  });

  it('turns API errors into the console’s messages', async () => {
    const anonymous = createFlotillaClient({ apiUrl: server.url });
    const failure = await anonymous.auth
      .login({ email: 'nobody@example.com', password: 'whatever-1' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FlotillaApiError);
    expect(errorText(failure)).toBe('Invalid login credentials');
  });

  it('reads through pine and pages long lists at the paging limit', async () => {
    const [organization] = await client.pine.get({
      resource: 'organization',
      options: { $select: ['id'] },
    });
    const created = await client.pine.post({
      resource: 'application',
      body: { app_name: 'sdk-fleet', organization: organization?.id, is_for__device_type: 1 },
    });
    const total = apiPagingLimit + 25;
    await server.db.query(
      `INSERT INTO "application_tag" ("application", "tag_key", "value") SELECT $1, 'k' || n, 'v' FROM generate_series(1, $2) n`,
      [created.id, total],
    );
    const all = await client.pine.getAllPaged({
      resource: 'application_tag',
      options: { $select: ['id'], $filter: { application: created.id } },
    });
    expect(all).toHaveLength(total);
    expect(new Set(all.map((row) => row.id)).size).toBe(total);
  });
});
