import { ticketFieldMessages } from '@flotilla/shared/support/ticket-field-admin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createSupportWorld, type SupportWorld } from '../../test-support/support-world.js';

// Platform administrators edit the ticket form's fields; the form follows.
let db: Database;
let world: SupportWorld;
let acme: number;
let alice: string;
let agent: string;
let admin: string;

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const path = '/admin/v1/support/ticket-fields';

beforeAll(async () => {
  db = await createTestDatabase();
  world = await createSupportWorld(db);
  acme = await world.organization('acme');
  alice = await world.signIn('alice', { memberOf: acme, admin: true });
  agent = await world.signIn('agnes', { role: 'support_agent' });
  admin = await world.signIn('root', { role: 'balena_admin' });
});
afterAll(async () => {
  await world.app.close();
  await db.close();
});

const send = (method: 'POST' | 'PUT', url: string, payload: object, token = admin) =>
  world.app.inject({ method, url, headers: auth(token), payload });

const formTitles = async (): Promise<string[]> => {
  const response = await world.app.inject({
    method: 'GET',
    url: `/zendesk/v1/${acme}/ticket-fields`,
    headers: auth(alice),
  });
  return response
    .json<{ ticket_fields: { title: string }[] }>()
    .ticket_fields.map((field) => field.title);
};

const hardware = {
  type: 'tagger',
  title: 'Hardware',
  description: 'The board',
  required: true,
  position: 3,
  options: [
    { name: 'Raspberry Pi 4', value: 'rpi4' },
    { name: 'Other', value: 'other' },
  ],
};

describe('editing the ticket fields', () => {
  it('adds a drop-down the form then asks for, and deactivates it out of the form', async () => {
    const created = await send('POST', path, hardware);
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<{ id: number }>();
    expect(await formTitles()).toEqual(['Area', 'Affected devices', 'Hardware']);
    const list = await world.app.inject({ method: 'GET', url: path, headers: auth(admin) });
    expect(list.json()).toContainEqual({ id, active: true, ...hardware });

    const changed = await send('PUT', `${path}/${id}`, { ...hardware, active: false });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await formTitles()).toEqual(['Area', 'Affected devices']);
    // Still listed for the administrators.
    const again = await world.app.inject({ method: 'GET', url: path, headers: auth(admin) });
    expect(again.json()).toContainEqual({ id, ...hardware, active: false });
  });

  it('refuses a field that is not whole, in words', async () => {
    const cases: [object, string][] = [
      [{ ...hardware, title: '  ' }, ticketFieldMessages.titleRequired],
      [{ ...hardware, options: [] }, ticketFieldMessages.optionsRequired],
      [{ ...hardware, options: [{ name: 'A', value: '' }] }, ticketFieldMessages.optionIncomplete],
      [
        {
          ...hardware,
          options: [
            { name: 'A', value: 'a' },
            { name: 'B', value: 'a' },
          ],
        },
        ticketFieldMessages.optionsRepeated,
      ],
      [{ ...hardware, type: 'text' }, ticketFieldMessages.optionsOnlyForDropDown],
    ];
    for (const [payload, message] of cases) {
      const response = await send('POST', path, payload);
      expect([response.statusCode, response.body]).toEqual([400, message]);
    }
    const unknown = await send('PUT', `${path}/999999`, { ...hardware, title: 'X' });
    expect(unknown.statusCode).toBe(404);
  });

  it('is refused to organization administrators and support agents', async () => {
    for (const token of [alice, agent]) {
      const list = await world.app.inject({ method: 'GET', url: path, headers: auth(token) });
      expect(list.statusCode).toBe(401);
      expect((await send('POST', path, hardware, token)).statusCode).toBe(401);
    }
    const { rows } = await db.query(`SELECT 1 FROM "support_ticket_field" WHERE "title" = 'X'`);
    expect(rows).toEqual([]);
  });
});
