import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { supportAttachmentMaxBytes } from '@flotilla/shared/support/support-tickets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import {
  createSupportWorld,
  multipartFile,
  type SupportWorld,
} from '../../test-support/support-world.js';

// The built-in help desk end to end on the full server: attachments at and over the 5 MB limit,
// the ticket form's Zendesk-shaped routes, visibility across organizations, an agent's reply
// reaching the requester in the console and by mail.

let db: Database;
let world: SupportWorld;
let acme: number;
let globex: number;
let alice: string; // member of acme
let bob: string; // administrator of globex
let agent: string; // support agent

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  db = await createTestDatabase();
  world = await createSupportWorld(db);
  acme = await world.organization('acme');
  globex = await world.organization('globex');
  alice = await world.signIn('alice', { memberOf: acme });
  bob = await world.signIn('bob', { memberOf: globex, admin: true });
  agent = await world.signIn('agnes', { role: 'support_agent' });
});
afterAll(async () => {
  await world.app.close();
  await db.close();
});

const upload = async (token: string, org: number, bytes: Buffer, type = 'text/plain') => {
  const form = await multipartFile('file', 'device.log', type, bytes);
  return world.app.inject({
    method: 'POST',
    url: `/zendesk/v1/${org}/upload-attachment`,
    headers: { ...auth(token), 'content-type': form.contentType },
    payload: form.payload,
  });
};

const areaField = async (token: string, org: number): Promise<number> => {
  const response = await world.app.inject({
    method: 'GET',
    url: `/zendesk/v1/${org}/ticket-fields`,
    headers: auth(token),
  });
  expect(response.statusCode).toBe(200);
  const fields = response.json<{
    ticket_fields: { id: number; title: string; required: boolean }[];
  }>().ticket_fields;
  const area = fields.find((field) => field.title === 'Area');
  expect(area?.required).toBe(true);
  return area?.id ?? 0;
};

describe('the ticket form', () => {
  it('serves the installation fields in Zendesk shape to members only', async () => {
    await areaField(alice, acme);
    const stranger = await world.app.inject({
      method: 'GET',
      url: `/zendesk/v1/${acme}/ticket-fields`,
      headers: auth(bob),
    });
    expect(stranger.statusCode).toBe(404);
  });

  it('stores an attachment at the limit and refuses one over it or of a refused type', async () => {
    const atLimit = await upload(alice, acme, Buffer.alloc(supportAttachmentMaxBytes, 97));
    expect(atLimit.statusCode).toBe(201);
    const answer = atLimit.json<{ upload: { token: string; attachment: { size: number } } }>();
    expect(answer.upload.attachment.size).toBe(supportAttachmentMaxBytes);
    expect(answer.upload.token).toMatch(/^[0-9a-f]{32}$/);

    const over = await upload(alice, acme, Buffer.alloc(supportAttachmentMaxBytes + 1, 97));
    expect(over.statusCode).toBe(413);
    expect(over.body).toContain('5 MB');

    const html = await upload(alice, acme, Buffer.from('<script>x</script>'), 'text/html');
    expect(html.statusCode).toBe(400);
    expect(html.body).toContain('cannot be attached');
  });

  it('refuses a ticket missing a required field and writes nothing', async () => {
    const before = await db.query('SELECT 1 FROM "support_ticket"');
    const response = await world.app.inject({
      method: 'POST',
      url: `/zendesk/v1/${acme}/submit-ticket`,
      headers: auth(alice),
      payload: { subject: 'Help', comment: { body: 'Broken' } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Area is required');
    const after = await db.query('SELECT 1 FROM "support_ticket"');
    expect(after.rows.length).toBe(before.rows.length);
  });

  it('refuses another user’s upload token', async () => {
    const carol = await world.signIn('carol', { memberOf: acme });
    const token = (await upload(carol, acme, Buffer.from('mine'))).json<{
      upload: { token: string };
    }>().upload.token;
    const area = await areaField(alice, acme);
    const response = await world.app.inject({
      method: 'POST',
      url: `/zendesk/v1/${acme}/submit-ticket`,
      headers: auth(alice),
      payload: {
        subject: 'Help',
        comment: { body: 'Broken', uploads: [token] },
        custom_fields: [{ id: area, value: 'devices' }],
      },
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('a ticket’s life', () => {
  let ticketId = 0;

  it('is submitted with an attachment and a cc list', async () => {
    const uploaded = await upload(alice, acme, Buffer.from('kernel: oops'));
    const token = uploaded.json<{ upload: { token: string } }>().upload.token;
    const area = await areaField(alice, acme);
    const response = await world.app.inject({
      method: 'POST',
      url: `/zendesk/v1/${acme}/submit-ticket`,
      headers: auth(alice),
      payload: {
        subject: 'Device offline',
        comment: { body: 'It stopped reporting.', uploads: [token] },
        email_ccs: [{ user_email: 'ops@acme.example', action: 'put' }],
        custom_fields: [{ id: area, value: 'devices' }],
      },
    });
    expect(response.statusCode).toBe(201);
    const ticket = response.json<{ ticket: { id: number; status: string } }>().ticket;
    expect(ticket.status).toBe('new');
    ticketId = ticket.id;
  });

  it('is visible to its organization and to agents, to no one else', async () => {
    const mine = await world.app.inject({
      method: 'GET',
      url: `/support/v1/tickets?organization=${acme}`,
      headers: auth(alice),
    });
    expect(mine.json<{ tickets: { id: number }[] }>().tickets.map((t) => t.id)).toEqual([ticketId]);
    for (const url of [
      `/support/v1/tickets/${ticketId}`,
      `/support/v1/tickets?organization=${acme}`,
    ]) {
      const other = await world.app.inject({ method: 'GET', url, headers: auth(bob) });
      expect(other.statusCode).toBe(404);
    }
    const queue = await world.app.inject({
      method: 'GET',
      url: '/support/v1/queue',
      headers: auth(agent),
    });
    expect(queue.json<{ tickets: { id: number }[] }>().tickets.map((t) => t.id)).toContain(
      ticketId,
    );
    const bobsQueue = await world.app.inject({
      method: 'GET',
      url: '/support/v1/queue',
      headers: auth(bob),
    });
    expect(bobsQueue.statusCode).toBe(401);
  });

  it('is assigned and answered by an agent; the requester sees the reply and gets it by mail', async () => {
    const agentId = (
      await db.query<{ id: number }>(`SELECT "id" FROM "user" WHERE "username" = 'agnes'`)
    ).rows[0]?.id;
    const assign = await world.app.inject({
      method: 'PATCH',
      url: `/support/v1/queue/${ticketId}`,
      headers: auth(agent),
      payload: { assignee: agentId, priority: 'high', status: 'open' },
    });
    expect(assign.statusCode).toBe(200);
    const reply = await world.app.inject({
      method: 'POST',
      url: `/support/v1/queue/${ticketId}/messages`,
      headers: auth(agent),
      payload: { body: 'Please restart the device.' },
    });
    expect(reply.statusCode).toBe(201);
    expect(reply.json<{ mailed: number }>().mailed).toBe(2);

    const detail = await world.app.inject({
      method: 'GET',
      url: `/support/v1/tickets/${ticketId}`,
      headers: auth(alice),
    });
    const ticket = detail.json<{
      status: string;
      priority: string;
      assignee: { username: string };
      cc: string[];
      messages: { body: string; fromAgent: boolean; attachments: { content_url: string }[] }[];
    }>();
    expect(ticket).toMatchObject({
      status: 'pending',
      priority: 'high',
      assignee: { username: 'agnes' },
    });
    expect(ticket.cc).toEqual(['ops@acme.example']);
    expect(ticket.messages.map((m) => [m.fromAgent, m.body])).toEqual([
      [false, 'It stopped reporting.'],
      [true, 'Please restart the device.'],
    ]);
    const href = ticket.messages[0]?.attachments[0]?.content_url ?? '';
    const file = await world.app.inject({ method: 'GET', url: new URL(href).pathname });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('kernel: oops');
    expect(file.headers['content-disposition']).toContain('attachment');
    const uuid = new URL(href).pathname.split('/')[4] ?? '';
    expect(await readFile(path.join(world.dataDir, 'support-attachments', uuid), 'utf8')).toBe(
      'kernel: oops',
    );

    const mail = await db.query<{ recipient: string; subject: string; text_body: string }>(
      `SELECT "recipient", "subject", "text_body" FROM "mail_message" WHERE "subject" LIKE $1 ORDER BY "recipient"`,
      [`Re: [Ticket #${ticketId}]%`],
    );
    expect(mail.rows.map((row) => row.recipient)).toEqual([
      'alice@example.com',
      'ops@acme.example',
    ]);
    expect(mail.rows[0]?.text_body).toContain('Please restart the device.');
    expect(mail.rows[0]?.text_body).toContain(`/orgs/${acme}/support/${ticketId}`);
  });

  it('reopens when the requester answers', async () => {
    const answer = await world.app.inject({
      method: 'POST',
      url: `/support/v1/tickets/${ticketId}/messages`,
      headers: auth(alice),
      payload: { body: 'Restarted, still offline.' },
    });
    expect(answer.statusCode).toBe(201);
    const status = await db.query<{ status: string }>(
      'SELECT "status" FROM "support_ticket" WHERE "id" = $1',
      [ticketId],
    );
    expect(status.rows[0]?.status).toBe('open');
    const stranger = await world.app.inject({
      method: 'POST',
      url: `/support/v1/tickets/${ticketId}/messages`,
      headers: auth(bob),
      payload: { body: 'Let me in' },
    });
    expect(stranger.statusCode).toBe(404);
  });

  it('refuses an assignee who is not a support agent', async () => {
    const aliceId = (
      await db.query<{ id: number }>(`SELECT "id" FROM "user" WHERE "username" = 'alice'`)
    ).rows[0]?.id;
    const response = await world.app.inject({
      method: 'PATCH',
      url: `/support/v1/queue/${ticketId}`,
      headers: auth(agent),
      payload: { assignee: aliceId },
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('can-access-support', () => {
  it('is true for members when the installation does not bill', async () => {
    const response = await world.app.inject({
      method: 'GET',
      url: `/billing/v1/account/${globex}/can-access-support`,
      headers: auth(bob),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toBe(true);
  });
});
