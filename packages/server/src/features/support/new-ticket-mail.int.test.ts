import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createSupportWorld, type SupportWorld } from '../../test-support/support-world.js';
import { newTicketMailsPerOrganizationPerHour } from './new-ticket-mail.js';

// A new ticket reaches the support agents by mail (through the outbox, with the mail limits);
// nobody else is told, and past the limit the ticket is still taken.
let db: Database;
let world: SupportWorld;
let acme: number;
let alice: string;
let area = 0;

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  db = await createTestDatabase();
  world = await createSupportWorld(db);
  acme = await world.organization('acme');
  alice = await world.signIn('alice', { memberOf: acme });
  await world.signIn('agnes', { role: 'support_agent' });
  await world.signIn('archie', { role: 'support_agent' });
  await world.signIn('root', { role: 'balena_admin' });
  const fields = await world.app.inject({
    method: 'GET',
    url: `/zendesk/v1/${acme}/ticket-fields`,
    headers: auth(alice),
  });
  area =
    fields
      .json<{ ticket_fields: { id: number; title: string }[] }>()
      .ticket_fields.find((field) => field.title === 'Area')?.id ?? 0;
});
afterAll(async () => {
  await world.app.close();
  await db.close();
});

const submit = async (subject: string): Promise<number> => {
  const response = await world.app.inject({
    method: 'POST',
    url: `/zendesk/v1/${acme}/submit-ticket`,
    headers: auth(alice),
    payload: {
      subject,
      comment: { body: 'The fleet stopped updating.' },
      custom_fields: [{ id: area, value: 'devices' }],
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ ticket: { id: number } }>().ticket.id;
};

const mailsAbout = async (ticketId: number) =>
  (
    await db.query<{ recipient: string; subject: string; text_body: string }>(
      `SELECT "recipient", "subject", "text_body" FROM "mail_message"
        WHERE "subject" = $1 ORDER BY "recipient"`,
      [`[Ticket #${ticketId}] Updates stuck`],
    )
  ).rows;

describe('mail to support agents on a new ticket', () => {
  it('mails every support agent, and only them, with a link to the queue', async () => {
    const id = await submit('Updates stuck');
    const mails = await mailsAbout(id);
    expect(mails.map((mail) => mail.recipient)).toEqual([
      'agnes@example.com',
      'archie@example.com',
    ]);
    expect(mails[0]?.text_body).toContain('alice opened ticket');
    expect(mails[0]?.text_body).toContain('The fleet stopped updating.');
    expect(mails[0]?.text_body).toContain(`/admin/support/${id}`);
  });

  it("takes tickets past the organization's mail limit, without mailing", async () => {
    await db.query('DELETE FROM "rate_limit_hit"');
    const ids: number[] = [];
    for (let n = 0; n <= newTicketMailsPerOrganizationPerHour; n += 1) {
      ids.push(await submit('Updates stuck'));
    }
    const last = ids.at(-1) ?? 0;
    expect(await mailsAbout(ids[0] ?? 0)).toHaveLength(2);
    expect(await mailsAbout(last)).toEqual([]);
    const { rows } = await db.query('SELECT 1 FROM "support_ticket" WHERE "id" = $1', [last]);
    expect(rows).toHaveLength(1);
  });
});
