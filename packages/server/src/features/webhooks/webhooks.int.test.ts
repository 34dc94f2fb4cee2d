import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fx from '../../test-support/fixtures.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { bearer, signedInUser } from '../../test-support/user-sessions.js';
import { waitFor } from '../../test-support/wait-for.js';
import { startTestReceiver, type Received, type TestReceiver } from './test-receiver.js';

// What a receiver does (docs/EVENTS.md): recompute the HMAC over "<t>.<body>" with the secret, and
// refuse a timestamp older than five minutes.
const verify = (secret: string, received: Received, nowSeconds: number): boolean => {
  const header = String(received.headers['flotilla-signature'] ?? '');
  const parts = new Map(
    header
      .split(',')
      .map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)]),
  );
  const timestamp = Number(parts.get('t'));
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > 300) return false;
  const expected = createHmac('sha256', secret)
    .update(`${timestamp}.${received.body}`)
    .digest('hex');
  return parts.get('v1') === expected;
};

describe('webhooks', () => {
  let server: TestServer;
  let receiver: TestReceiver;
  let admin: { id: number; token: string };
  let member: { id: number; token: string };
  let organization: number;
  let fleet: fx.FleetFixture;
  let other: fx.FleetFixture;
  let endpointId = 0;
  let secret = '';

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    token: string,
    payload?: object,
  ) => server.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const base = () => `/webhooks/v1/organizations/${organization}/endpoints`;

  beforeAll(async () => {
    receiver = await startTestReceiver();
    server = await startTestServer({
      config: { webhooks: { allowedNetworks: ['127.0.0.1'], timeoutMs: 5_000 } },
    });
    admin = await signedInUser(server.db, server.app, 'hookadmin');
    member = await signedInUser(server.db, server.app, 'hookmember');
    organization = await fx.createOrganization(server.db, 'Hooked');
    await fx.addOrganizationMember(server.db, admin.id, organization, 'administrator');
    await fx.addOrganizationMember(server.db, member.id, organization, 'member');
    fleet = await fx.createFleet(server.db, organization, 'hooked');
    other = await fx.createFleet(server.db, organization, 'unhooked');
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  it('lets an administrator register an endpoint, showing its secret once', async () => {
    const created = await call('POST', base(), admin.token, {
      url: receiver.url,
      events: ['variable.changed', 'device.online'],
      fleet: fleet.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json<{ endpoint: { id: number; fleet: number }; secret: string }>();
    expect(body.secret).toMatch(/^whsec_/);
    expect(body.endpoint.fleet).toBe(fleet.id);
    endpointId = body.endpoint.id;
    secret = body.secret;
    const listed = await call('GET', base(), admin.token);
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(secret);
  });

  it('gives a member without the right nothing', async () => {
    for (const [method, url] of [
      ['GET', base()],
      ['POST', base()],
      ['PATCH', `${base()}/${endpointId}`],
      ['DELETE', `${base()}/${endpointId}`],
      ['GET', `${base()}/${endpointId}/deliveries`],
      ['POST', `${base()}/${endpointId}/deliveries/1/redeliver`],
    ] as const) {
      const response = await call(method, url, member.token, {
        url: receiver.url,
        events: ['key.created'],
      });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('refuses unknown events, foreign fleets and addresses the guard refuses', async () => {
    const unknown = await call('POST', base(), admin.token, {
      url: receiver.url,
      events: ['device.exploded'],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('Unknown event type');
    const elsewhere = await fx.createFleet(
      server.db,
      await fx.createOrganization(server.db, 'Else'),
      'else',
    );
    const foreign = await call('POST', base(), admin.token, {
      url: receiver.url,
      events: ['key.created'],
      fleet: elsewhere.id,
    });
    expect(foreign.statusCode).toBe(400);
    const privateAddress = await call('POST', base(), admin.token, {
      url: 'http://10.1.2.3/hook',
      events: ['key.created'],
    });
    expect(privateAddress.statusCode).toBe(400);
    expect(privateAddress.body).toContain('FLOTILLA_WEBHOOK_ALLOWED_NETWORKS');
    const metadata = await call('POST', base(), admin.token, {
      url: 'http://169.254.169.254/latest',
      events: ['key.created'],
    });
    expect(metadata.statusCode).toBe(400);
  });

  it('delivers a signed event of its fleet within seconds, and none of another fleet', async () => {
    await fx.setFleetEnvVar(server.db, other.id, 'ELSEWHERE', '1');
    await fx.setFleetEnvVar(server.db, fleet.id, 'HERE', '1');
    await waitFor('a delivery', () => receiver.received.length >= 1);
    const [received] = receiver.received;
    if (!received) throw new Error('nothing received');
    expect(verify(secret, received, Math.floor(Date.now() / 1000))).toBe(true);
    expect(verify('whsec_wrong', received, Math.floor(Date.now() / 1000))).toBe(false);
    // An old timestamp is refused, however valid its signature.
    expect(verify(secret, received, Math.floor(Date.now() / 1000) + 3_600)).toBe(false);
    const event = JSON.parse(received.body) as {
      type: string;
      fleet: number;
      data: { name: string };
    };
    expect(event).toMatchObject({
      type: 'variable.changed',
      fleet: fleet.id,
      data: { name: 'HERE' },
    });
    expect(received.headers['flotilla-event']).toBe('variable.changed');
    await waitFor('the delivery recorded', async () => {
      const { rows } = await server.db.query(
        `SELECT 1 FROM "webhook_delivery" WHERE "status" = 'succeeded'`,
      );
      return rows.length === 1;
    });
    expect(receiver.received).toHaveLength(1);
  });

  it('shows deliveries with their answer, and delivers one again with the same id', async () => {
    const listed = await call('GET', `${base()}/${endpointId}/deliveries`, admin.token);
    expect(listed.statusCode).toBe(200);
    const [delivery] = listed.json<{
      deliveries: {
        id: number;
        deliveryId: string;
        status: string;
        responseStatus: number;
        responseBody: string;
      }[];
    }>().deliveries;
    expect(delivery).toMatchObject({ status: 'succeeded', responseStatus: 200 });
    expect(delivery?.responseBody.length).toBe(1024);
    const again = await call(
      'POST',
      `${base()}/${endpointId}/deliveries/${delivery?.id}/redeliver`,
      admin.token,
    );
    expect(again.statusCode, again.body).toBe(200);
    await waitFor('the redelivery', () => receiver.received.length === 2);
    expect(receiver.received[1]?.headers['flotilla-delivery']).toBe(delivery?.deliveryId);
    expect(receiver.received[1]?.body).toBe(receiver.received[0]?.body);
  });

  it('lets the administrator delete the endpoint', async () => {
    const deleted = await call('DELETE', `${base()}/${endpointId}`, admin.token);
    expect(deleted.statusCode).toBe(204);
    expect(
      (await call('GET', base(), admin.token)).json<{ endpoints: unknown[] }>().endpoints,
    ).toEqual([]);
  });
});
