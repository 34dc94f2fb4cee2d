import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createSupportWorld, type SupportWorld } from '../../test-support/support-world.js';

// Each rule of the help desk's permission table, tested from the side of a caller without it:
// the queue (support_ticket update: support agents, platform administrators) gives nothing to an
// organization administrator; an organization's tickets and form (support_ticket read/create:
// its members) give nothing to a guest or an outsider, even a support agent cannot open tickets
// for an organization; with billing on, an organization without a paid plan cannot open private
// support.

let db: Database;
let world: SupportWorld;
let organization: number;
let ticket: number;
let outsider: string;
let orgAdmin: string;
let agent: string;

const ticketCount = async (): Promise<number> =>
  (await db.query<{ n: number }>('SELECT count(*)::integer AS "n" FROM "support_ticket_message"'))
    .rows[0]?.n ?? -1;

beforeAll(async () => {
  db = await createTestDatabase();
  world = await createSupportWorld(db);
  organization = await world.organization('acme');
  orgAdmin = await world.signIn('olga', { memberOf: organization, admin: true });
  outsider = await world.signIn('oscar');
  agent = await world.signIn('agnes', { role: 'support_agent' });
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "support_ticket" ("organization", "requester_name", "subject")
     VALUES ($1, 'olga', 'Hello') RETURNING "id"`,
    [organization],
  );
  ticket = rows[0]?.id ?? 0;
});
afterAll(async () => {
  await world.app.close();
  await db.close();
});

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string | undefined) =>
  world.app.inject({
    method,
    url,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    ...(method === 'GET' ? {} : { payload: { body: 'hi', status: 'solved' } }),
  });

describe('the support queue', () => {
  const queueRoutes = (): ['GET' | 'POST' | 'PATCH', string][] => [
    ['GET', '/support/v1/queue'],
    ['GET', '/support/v1/agents'],
    ['PATCH', `/support/v1/queue/${ticket}`],
    ['POST', `/support/v1/queue/${ticket}/messages`],
  ];

  it('gives nothing to a guest, an outsider or an organization administrator', async () => {
    const before = await ticketCount();
    for (const [method, url] of queueRoutes()) {
      for (const token of [undefined, outsider, orgAdmin]) {
        const response = await call(method, url, token);
        expect(response.statusCode, `${method} ${url}`).toBe(401);
      }
    }
    expect(await ticketCount()).toBe(before);
    const status = await db.query<{ status: string }>(
      'SELECT "status" FROM "support_ticket" WHERE "id" = $1',
      [ticket],
    );
    expect(status.rows[0]?.status).toBe('new');
  });

  it('serves a support agent', async () => {
    expect((await call('GET', '/support/v1/queue', agent)).statusCode).toBe(200);
  });
});

describe('an organization’s tickets', () => {
  const memberRoutes = (): ['GET' | 'POST', string][] => [
    ['GET', `/support/v1/tickets?organization=${organization}`],
    ['GET', `/support/v1/tickets/${ticket}`],
    ['POST', `/support/v1/tickets/${ticket}/messages`],
    ['GET', `/zendesk/v1/${organization}/ticket-fields`],
    ['POST', `/zendesk/v1/${organization}/submit-ticket`],
    ['GET', `/billing/v1/account/${organization}/can-access-support`],
  ];

  it('give nothing to a guest or an outsider', async () => {
    const before = await ticketCount();
    for (const [method, url] of memberRoutes()) {
      expect((await call(method, url, undefined)).statusCode, `${method} ${url}`).toBe(401);
      expect((await call(method, url, outsider)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect(await ticketCount()).toBe(before);
  });

  it('cannot be opened by a support agent for an organization they are not in', async () => {
    const response = await call('POST', `/zendesk/v1/${organization}/submit-ticket`, agent);
    expect(response.statusCode).toBe(404);
  });

  it('are read by a support agent through the queue’s rights', async () => {
    expect((await call('GET', `/support/v1/tickets/${ticket}`, agent)).statusCode).toBe(200);
  });
});

describe('private support with billing on', () => {
  it('is refused to an organization without a paid plan', async () => {
    const billing = await createSupportWorld(db, { config: { billingEnabled: true } });
    try {
      const admin = await billing.signIn('bella', { memberOf: organization, admin: true });
      const access = await billing.app.inject({
        method: 'GET',
        url: `/billing/v1/account/${organization}/can-access-support`,
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(access.json()).toBe(false);
      const before = await ticketCount();
      const submit = await billing.app.inject({
        method: 'POST',
        url: `/zendesk/v1/${organization}/submit-ticket`,
        headers: { authorization: `Bearer ${admin}` },
        payload: { subject: 'Help', comment: { body: 'Please' } },
      });
      expect(submit.statusCode).toBe(401);
      expect(submit.body).toContain('paid plans');
      expect(await ticketCount()).toBe(before);
    } finally {
      await billing.app.close();
    }
  });
});
