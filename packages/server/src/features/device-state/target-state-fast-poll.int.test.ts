import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../infra/auth/api-key-tokens.js';
import { observeFastAnswers } from '../../infra/http/fast-answers.js';
import * as fx from '../../test-support/fixtures.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { waitFor, waitForValue } from '../../test-support/wait-for.js';
import { createApiKey } from '../api-keys/store-api-key.js';

// The 304 poll answered before the framework (infra/http/fast-answers.ts), on a real listening
// server (app.inject never reaches the HTTP server, so it always takes the framework's route).
const scrapeToken = 'scrape-token-0123456789';

describe('target state: 304 polls answered from memory', () => {
  let server: TestServer;
  let provisioningKey: string;
  let fleet: fx.FleetFixture;
  const fastAnswers: { route: string; status: number }[] = [];

  beforeAll(async () => {
    server = await startTestServer({
      config: { prometheus: { token: scrapeToken, allowedNetworks: [], fleetLimit: 5 } },
    });
    observeFastAnswers(server.app, (route, _method, status) => fastAnswers.push({ route, status }));
    const org = await fx.createOrganization(server.db, 'Fast');
    fleet = await fx.createFleet(server.db, org, 'Polls');
    provisioningKey = await createApiKey(server.db, fleet.actorId, { name: 'provisioning' });
  });
  afterAll(() => server.close());

  const registerDevice = async () => {
    const uuid = randomBytes(16).toString('hex');
    const response = await fetch(`${server.url}/device/register`, {
      method: 'POST',
      headers: { authorization: `Bearer ${provisioningKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ application: fleet.id, uuid, device_type: 'raspberrypi4-64' }),
    });
    expect(response.status).toBe(201);
    const device = (await response.json()) as { id: number; api_key: string };
    return { ...device, uuid };
  };

  const poll = async (
    uuid: string,
    key: string,
    headers: Record<string, string> = {},
    query = '',
  ) => {
    const response = await fetch(`${server.url}/device/v3/${uuid}/state${query}`, {
      headers: { authorization: `Bearer ${key}`, ...headers },
    });
    await response.arrayBuffer();
    return response;
  };

  // The first poll builds the target; once the caches are live, the ETag is answered 304.
  const pollUntilNotModified = async (uuid: string, key: string): Promise<string> => {
    const first = await poll(uuid, key);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag') ?? '';
    await waitForValue(
      'a 304 from the fast path',
      async () => {
        fastAnswers.length = 0;
        const response = await poll(uuid, key, { 'if-none-match': etag });
        return response.status === 304 && fastAnswers.length === 1;
      },
      (done) => done,
    );
    return etag;
  };

  // The request counter's 304s of the poll route, as a scrape reads it.
  const scrapedNotModified = async (): Promise<number> => {
    const response = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${scrapeToken}` },
    });
    const text = await response.text();
    expect(response.status).toBe(200);
    const series =
      'flotilla_http_requests_total{route="/device/v3/:uuid/state",method="GET",status="304"} ';
    const line = text.split('\n').find((candidate) => candidate.startsWith(series));
    return line === undefined ? 0 : Number(line.slice(series.length));
  };

  const withoutDate = (headers: Headers) =>
    Object.fromEntries([...headers].filter(([name]) => name !== 'date'));

  it('answers the same 304 as the framework, counted in the request metrics, and records the contact', async () => {
    const device = await registerDevice();
    const etag = await pollUntilNotModified(device.uuid, device.api_key);
    expect(fastAnswers).toEqual([{ route: '/device/v3/:uuid/state', status: 304 }]);
    const fast = await poll(device.uuid, device.api_key, { 'if-none-match': etag });
    // A query string leaves the request to the framework, which answers from the same cache.
    fastAnswers.length = 0;
    const framework = await poll(device.uuid, device.api_key, { 'if-none-match': etag }, '?x=1');
    expect(fastAnswers).toEqual([]);
    expect(framework.status).toBe(304);
    expect(withoutDate(fast.headers)).toEqual(withoutDate(framework.headers));
    expect(fast.headers.get('etag')).toBe(etag);

    // Each answer is in the counter a scrape reads (added when it is read), once.
    const before = await scrapedNotModified();
    fastAnswers.length = 0;
    for (let n = 0; n < 3; n += 1)
      await poll(device.uuid, device.api_key, { 'if-none-match': etag });
    expect(fastAnswers).toHaveLength(3);
    expect(await scrapedNotModified()).toBe(before + 3);
    expect(await scrapedNotModified()).toBe(before + 3);

    // Forgotten on both sides: the process skips contacts within 10 s of one it stored.
    await server.db.query('UPDATE "device" SET "last_contact_at" = NULL WHERE "id" = $1', [
      device.id,
    ]);
    server.ctx.contacts.forget(device.id);
    await poll(device.uuid, device.api_key, { 'if-none-match': etag });
    await server.ctx.contacts.flush();
    const { rows } = await server.db.query<{ seen: boolean }>(
      'SELECT "last_contact_at" IS NOT NULL AS "seen" FROM "device" WHERE "id" = $1',
      [device.id],
    );
    expect(rows).toEqual([{ seen: true }]);
  });

  // Devices read these answers, browsers never render them: what only a browser reads is left out
  // (infra/http/security-headers.ts), on the framework's answers and on the fast 304 alike.
  it('answers a device what it needs and nothing only a browser reads', async () => {
    const device = await registerDevice();
    const authorization = `Bearer ${device.api_key}`;
    for (const [version, part] of [
      ['v3', device.uuid],
      ['v2', 'local'],
    ] as const) {
      const response = await fetch(`${server.url}/device/${version}/${device.uuid}/state`, {
        headers: { authorization },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('etag')).toMatch(/^"[^"]+"$/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toBeNull();
      expect(response.headers.get('x-frame-options')).toBeNull();
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(Object.keys((await response.json()) as object)).toContain(part);
    }
    const etag = await pollUntilNotModified(device.uuid, device.api_key);
    const notModified = await poll(device.uuid, device.api_key, { 'if-none-match': etag });
    expect(notModified.status).toBe(304);
    const connection = new Set(['date', 'connection', 'keep-alive']);
    expect(
      Object.fromEntries([...notModified.headers].filter(([name]) => !connection.has(name))),
    ).toEqual({
      etag,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      vary: 'Origin',
    });
  });

  it('leaves to the framework what it cannot answer from memory', async () => {
    const device = await registerDevice();
    const other = await registerDevice();
    const etag = await pollUntilNotModified(device.uuid, device.api_key);
    fastAnswers.length = 0;
    // No ETag: the body.
    expect((await poll(device.uuid, device.api_key)).status).toBe(200);
    // Another device's key with this device's ETag: refused, never a 304.
    const foreign = await poll(device.uuid, other.api_key, { 'if-none-match': etag });
    expect(foreign.status).not.toBe(304);
    // A browser's request (Origin): the CORS plugin answers it.
    const browser = await poll(device.uuid, device.api_key, {
      'if-none-match': etag,
      origin: 'https://example.com',
    });
    expect(browser.status).toBe(304);
    expect(browser.headers.get('access-control-allow-origin')).toBe('*');
    expect(browser.headers.get('access-control-expose-headers')).toContain('ETag');
    expect(browser.headers.get('vary')).toBe('Origin');
    // A key not cached (unknown): 401 from the framework.
    expect((await poll(device.uuid, 'not-a-key', { 'if-none-match': etag })).status).toBe(401);
    expect(fastAnswers).toEqual([]);
  });

  it('stops answering once the target changes or the key is revoked', async () => {
    const device = await registerDevice();
    const etag = await pollUntilNotModified(device.uuid, device.api_key);
    await server.db.query(`UPDATE "device" SET "device_name" = 'renamed' WHERE "id" = $1`, [
      device.id,
    ]);
    await waitFor('the change to reach the target-state cache', async () => {
      const response = await poll(device.uuid, device.api_key, { 'if-none-match': etag });
      return response.status === 200;
    });
    const renamed = await pollUntilNotModified(device.uuid, device.api_key);
    expect(renamed).not.toBe(etag);

    await server.db.query('DELETE FROM "api_key" WHERE "key_hash" = $1', [
      hashApiKey(device.api_key),
    ]);
    await waitFor('the revocation to reach the actor cache', async () => {
      const response = await poll(device.uuid, device.api_key, { 'if-none-match': renamed });
      return response.status === 401;
    });
    fastAnswers.length = 0;
    expect((await poll(device.uuid, device.api_key, { 'if-none-match': renamed })).status).toBe(
      401,
    );
    expect(fastAnswers).toEqual([]);
  });
});
