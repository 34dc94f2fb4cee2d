import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../features/api-keys/store-api-key.js';
import { issueSessionToken } from '../../features/auth/issue-session-token.js';
import * as fx from '../../test-support/fixtures.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { jsonDepthMessage } from './json-depth.js';
import { nulInBodyMessage, nulInHeaderMessage, nulInUrlMessage } from './nul-guard.js';

// Findings of a security review: each of these once answered 500.
describe('hostile input on the non-/v7 routes', () => {
  let server: TestServer;
  let token: string;
  let deviceKey: string;
  let fleet: fx.FleetFixture;
  let device: fx.DeviceFixture;

  beforeAll(async () => {
    server = await startTestServer();
    const db = server.db;
    const user = await fx.createUser(db, 'alice');
    const organization = await fx.createOrganization(db, 'Acme');
    await fx.addOrganizationMember(db, user.userId, organization, 'administrator');
    fleet = await fx.createFleet(db, organization, 'Greenhouse');
    device = await fx.createDevice(db, fleet.id, 'sensor');
    deviceKey = await createApiKey(db, device.actorId, { name: 'device' });
    token = await issueSessionToken(server.ctx, db, user.userId);
  });

  afterAll(async () => server.close());

  const call = (
    method: 'GET' | 'POST',
    url: string,
    options: { body?: unknown; key?: string; headers?: Record<string, string> } = {},
  ) =>
    server.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${options.key ?? token}`,
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
    });

  it('refuses NUL in paths and query parameters with a 400', async () => {
    const urls = [
      '/device-types/v1/%00',
      '/device/v2/%00/logs',
      '/device/v3/%00/state',
      '/config/vars?deviceType=%00',
      `/download-config?appId=${fleet.id}&deviceType=%00`,
      "/v7/device?$filter=device_name eq 'a%00b'",
    ];
    for (const url of urls) {
      const response = await call('GET', url);
      expect(response.statusCode, url).toBe(400);
      expect(response.body).toBe(nulInUrlMessage);
    }
  });

  it('refuses NUL in JSON bodies with a 400', async () => {
    const cases: [string, unknown][] = [
      ['/login_', { username: 'alice\u0000', password: 'whatever' }],
      ['/supervisor/v1/blink', { uuid: `${device.uuid}\u0000` }],
      ['/download-config', { appId: fleet.id, deviceType: '\u0000' }],
      ['/v7/device_tag', { device: device.id, tag_key: 'k\u0000', value: 'v' }],
      ['/v7/device_tag', { device: device.id, ['tag\u0000']: 'k', value: 'v' }],
    ];
    for (const [url, body] of cases) {
      const response = await call('POST', url, { body });
      expect(response.statusCode, url).toBe(400);
      expect(response.body).toBe(nulInBodyMessage);
    }
  });

  it('refuses NUL in header values with a 400', async () => {
    const response = await call('GET', '/config', { headers: { 'x-client': 'a\u0000b' } });
    expect(response.statusCode).toBe(400);
    expect(response.body).toBe(nulInHeaderMessage);
  });

  it('still stores device log lines containing NUL, without the NUL', async () => {
    const response = await call('POST', `/device/v2/${device.uuid}/logs`, {
      key: deviceKey,
      body: [{ message: 'nul\u0000here', timestamp: Date.now() }],
    });
    expect(response.statusCode, response.body).toBe(201);
    const history = await call('GET', `/device/v2/${device.uuid}/logs`);
    expect(history.json()).toMatchObject([{ message: 'nulhere' }]);
  });

  it('refuses deeply nested JSON and undecodable URLs with a 400 in our words', async () => {
    // Found by the fuzz: a body of 100,000 nested arrays exhausted the stack (500).
    const deep = await server.app.inject({
      method: 'POST',
      url: '/supervisor/v1/blink',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: `${'['.repeat(100_000)}"\\u0000"${']'.repeat(100_000)}`,
    });
    expect(deep.statusCode).toBe(400);
    expect(deep.body).toBe(jsonDepthMessage);
    const badUrl = await call('GET', '/v7/%ED%A0%80');
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.body).toBe('The URL is not validly percent-encoded');
  });

  it('refuses out-of-range numbers in parameters with a 400 naming them', async () => {
    const start = await call('GET', `/device/v2/${device.uuid}/logs?start=99999999999999999999`);
    expect(start.statusCode).toBe(400);
    expect(start.body).toBe(
      "start must be milliseconds or an ISO date, got '99999999999999999999'",
    );
    const appId = await call('GET', '/download-config?appId=99999999999');
    expect(appId.statusCode).toBe(400);
    expect(appId.body).toMatch(/^appId: /);
  });
});
