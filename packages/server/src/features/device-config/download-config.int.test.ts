import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fx from '../../test-support/fixtures.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

describe('/download-config', () => {
  let server: TestServer;
  let fleet: fx.FleetFixture;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer();
    const organization = await fx.createOrganization(server.db, 'Config Org');
    fleet = await fx.createFleet(server.db, organization, 'Cameras');
    for (const [name, role] of [
      ['owner', 'administrator'],
      ['viewer', 'observer'],
    ] as const) {
      const response = await fetch(`${server.url}/user/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `${name}@config.example`, password: 'a-good-password' }),
      });
      tokens[name] = await response.text();
      const user = await server.db.query<{ id: number }>(
        'SELECT "id" FROM "user" WHERE "email" = $1',
        [`${name}@config.example`],
      );
      const userId = user.rows[0]?.id ?? 0;
      if (role === 'administrator')
        await fx.addOrganizationMember(server.db, userId, organization, 'administrator');
      else await fx.addFleetMember(server.db, userId, fleet.id, role);
    }
  });
  afterAll(() => server.close());

  const post = (body: Record<string, unknown>, as: string) =>
    fetch(`${server.url}/download-config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[as]}` },
      body: JSON.stringify(body),
    });

  it('gives a working config.json with a fresh provisioning key', async () => {
    const response = await post(
      { appId: fleet.id, version: '6.0.0', network: 'ethernet', appUpdatePollInterval: 10 },
      'owner',
    );
    expect(response.status).toBe(200);
    const config = (await response.json()) as Record<string, unknown>;
    expect(config).toMatchObject({
      applicationId: fleet.id,
      deviceType: 'raspberrypi4-64',
      appUpdatePollInterval: 600_000,
      apiEndpoint: server.url,
    });
    const whoami = await fetch(`${server.url}/actor/v1/whoami`, {
      headers: { authorization: `Bearer ${String(config.apiKey)}` },
    });
    expect(await whoami.json()).toMatchObject({ actorType: 'application', actorTypeId: fleet.id });
  });

  it('refuses users who may not provision the fleet, and bad input', async () => {
    expect((await post({ appId: fleet.id }, 'viewer')).status).toBe(401);
    const unknownType = await post({ appId: fleet.id, deviceType: 'toaster' }, 'owner');
    expect(unknownType.status).toBe(400);
    expect(await unknownType.text()).toBe('Invalid device type: toaster');
    expect((await post({ appId: 'x' }, 'owner')).status).toBe(400);
  });
});
