import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { withAuditRefused } from '../../test-support/audit-refusal.js';
import {
  createSupportWorld,
  multipartFile,
  type SupportWorld,
} from '../../test-support/support-world.js';
import { createTestDatabase } from '../../test-support/test-database.js';

// A ticket opened at the built-in help desk, and a file uploaded for one, commit with their
// record: a record that cannot be written (a trigger refuses every insert into the log
// meanwhile) undoes the ticket; a refused ticket leaves no record.
let db: Database;
let world: SupportWorld;
let organization: number;
let member: string;
let area: number;

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const submitRoute = 'POST /zendesk/v1/:orgId/submit-ticket';
const uploadRoute = 'POST /zendesk/v1/:orgId/upload-attachment';

const records = async (resource: string): Promise<string[]> =>
  (
    await db.query<{ action: string }>(
      `SELECT "action" FROM "audit_log_entry" WHERE "resource" = $1 ORDER BY "id"`,
      [resource],
    )
  ).rows.map((row) => row.action);
const count = async (table: 'support_ticket' | 'support_attachment'): Promise<number> =>
  (await db.query(`SELECT 1 FROM "${table}"`)).rowCount ?? 0;

const submit = (customFields: object[]) =>
  world.app.inject({
    method: 'POST',
    url: `/zendesk/v1/${organization}/submit-ticket`,
    headers: auth(member),
    payload: { subject: 'Help', comment: { body: 'Broken' }, custom_fields: customFields },
  });
const upload = async () => {
  const form = await multipartFile('file', 'device.log', 'text/plain', Buffer.from('log'));
  return world.app.inject({
    method: 'POST',
    url: `/zendesk/v1/${organization}/upload-attachment`,
    headers: { ...auth(member), 'content-type': form.contentType },
    payload: form.payload,
  });
};

beforeAll(async () => {
  db = await createTestDatabase();
  world = await createSupportWorld(db);
  organization = await world.organization('recorded-tickets');
  member = await world.signIn('ticketeer', { memberOf: organization });
  const fields = await world.app.inject({
    method: 'GET',
    url: `/zendesk/v1/${organization}/ticket-fields`,
    headers: auth(member),
  });
  const found = fields
    .json<{ ticket_fields: { id: number; title: string }[] }>()
    .ticket_fields.find((field) => field.title === 'Area');
  if (!found) throw new Error('no Area field');
  area = found.id;
});
afterAll(async () => {
  await world.app.close();
  await db.close();
});

describe('a support ticket opened', () => {
  it('is not opened when its record cannot be written', async () => {
    await withAuditRefused(db, async () => {
      const response = await submit([{ id: area, value: 'devices' }]);
      expect(response.statusCode).toBeGreaterThanOrEqual(500);
    });
    expect(await count('support_ticket')).toBe(0);
    expect(await records(submitRoute)).toEqual([]);
  });

  it('is recorded once; a refused one (a required field missing) not at all', async () => {
    expect((await submit([])).statusCode).toBe(400);
    expect(await records(submitRoute)).toEqual([]);
    expect((await submit([{ id: area, value: 'devices' }])).statusCode).toBe(201);
    expect(await count('support_ticket')).toBe(1);
    expect(await records(submitRoute)).toEqual(['request']);
  });
});

describe('a file uploaded for a ticket', () => {
  it('is not kept when its record cannot be written, and is recorded once', async () => {
    await withAuditRefused(db, async () => {
      expect((await upload()).statusCode).toBeGreaterThanOrEqual(500);
    });
    expect(await count('support_attachment')).toBe(0);
    expect(await records(uploadRoute)).toEqual([]);
    expect((await upload()).statusCode).toBe(201);
    expect(await count('support_attachment')).toBe(1);
    expect(await records(uploadRoute)).toEqual(['request']);
  });
});
