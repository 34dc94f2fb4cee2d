import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import {
  createSupportWorld,
  multipartFile,
  type SupportWorld,
} from '../../test-support/support-world.js';

// Files on replies: a member's reply and an agent's carry the files each uploaded.
let db: Database;
let world: SupportWorld;
let acme: number;
let alice: string;
let agent: string;
let ticketId = 0;

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

const upload = async (token: string, org: number, name: string) => {
  const form = await multipartFile('file', name, 'text/plain', Buffer.from(`${name} body`));
  return world.app.inject({
    method: 'POST',
    url: `/zendesk/v1/${org}/upload-attachment`,
    headers: { ...auth(token), 'content-type': form.contentType },
    payload: form.payload,
  });
};

const tokenOf = async (token: string, org: number, name: string): Promise<string> => {
  const response = await upload(token, org, name);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ upload: { token: string } }>().upload.token;
};

const attachmentsOfThread = async () => {
  const detail = await world.app.inject({
    method: 'GET',
    url: `/support/v1/tickets/${ticketId}`,
    headers: auth(alice),
  });
  return detail
    .json<{ messages: { body: string; attachments: { file_name: string }[] }[] }>()
    .messages.map((message) => [message.body, message.attachments.map((a) => a.file_name)]);
};

beforeAll(async () => {
  db = await createTestDatabase();
  world = await createSupportWorld(db);
  acme = await world.organization('acme');
  alice = await world.signIn('alice', { memberOf: acme });
  agent = await world.signIn('agnes', { role: 'support_agent' });
  const fields = await world.app.inject({
    method: 'GET',
    url: `/zendesk/v1/${acme}/ticket-fields`,
    headers: auth(alice),
  });
  const area = fields
    .json<{ ticket_fields: { id: number; title: string }[] }>()
    .ticket_fields.find((field) => field.title === 'Area')?.id;
  const created = await world.app.inject({
    method: 'POST',
    url: `/zendesk/v1/${acme}/submit-ticket`,
    headers: auth(alice),
    payload: {
      subject: 'Logs attached',
      comment: { body: 'First.' },
      custom_fields: [{ id: area, value: 'devices' }],
    },
  });
  ticketId = created.json<{ ticket: { id: number } }>().ticket.id;
});
afterAll(async () => {
  await world.app.close();
  await db.close();
});

describe('attachments on replies', () => {
  it("carry the member's and the agent's files on their replies", async () => {
    const mine = await tokenOf(alice, acme, 'member.log');
    const memberReply = await world.app.inject({
      method: 'POST',
      url: `/support/v1/tickets/${ticketId}/messages`,
      headers: auth(alice),
      payload: { body: 'More logs.', uploads: [mine] },
    });
    expect(memberReply.statusCode, memberReply.body).toBe(201);

    const theirs = await tokenOf(agent, acme, 'agent.txt');
    const agentReply = await world.app.inject({
      method: 'POST',
      url: `/support/v1/queue/${ticketId}/messages`,
      headers: auth(agent),
      payload: { body: 'Try this.', uploads: [theirs] },
    });
    expect(agentReply.statusCode, agentReply.body).toBe(201);
    expect(await attachmentsOfThread()).toEqual([
      ['First.', []],
      ['More logs.', ['member.log']],
      ['Try this.', ['agent.txt']],
    ]);
  });

  it("refuses another author's upload on a reply, and an agent's upload to no organization", async () => {
    const agents = await tokenOf(agent, acme, 'not-yours.txt');
    const reply = await world.app.inject({
      method: 'POST',
      url: `/support/v1/tickets/${ticketId}/messages`,
      headers: auth(alice),
      payload: { body: 'Borrowed.', uploads: [agents] },
    });
    expect(reply.statusCode).toBe(400);
    const nowhere = await upload(agent, 999_999, 'x.txt');
    expect(nowhere.statusCode).toBe(404);
  });
});
