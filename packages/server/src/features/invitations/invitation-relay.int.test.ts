import { invitationMessageMaxLength } from '@flotilla/shared/constants/limits';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import {
  addOrganizationMember,
  createOrganization,
  createUser,
  type UserFixture,
} from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';

let db: Database;
let api: ODataTestApp;
let alice: UserFixture;
let bob: UserFixture;
let organizationId: number;

type Mail = { recipient: string; subject: string; text_body: string; html_body: string };

const mails = async (): Promise<Mail[]> =>
  (
    await db.query<Mail>(
      'SELECT "recipient", "subject", "text_body", "html_body" FROM "mail_message" ORDER BY "id"',
    )
  ).rows;

const invite = (invitee: string, as = 'alice', message?: string) =>
  api.send(
    'POST',
    '/organization_invite',
    {
      invitee,
      is_invited_to__organization: organizationId,
      ...(message === undefined ? {} : { message }),
    },
    as,
  );

beforeAll(async () => {
  db = await createTestDatabase();
  api = createODataTestApp(db, { config: { invitationRateLimitPerHour: 3 } });
  alice = await createUser(db, 'alice');
  bob = await createUser(db, 'bob');
  organizationId = await createOrganization(db, 'Relay');
  await addOrganizationMember(db, alice.userId, organizationId, 'administrator');
  await addOrganizationMember(db, bob.userId, organizationId, 'administrator');
  api.actors.set('alice', userActor(alice));
  api.actors.set('bob', userActor(bob));
});

afterAll(async () => {
  await api.app.close();
  await db.close();
});

beforeEach(async () => {
  await db.query('DELETE FROM "rate_limit_hit"');
  await db.query('DELETE FROM "invitee__is_invited_to__organization"');
  await db.query('DELETE FROM "mail_message"');
});

describe('invitations cannot make the instance a mail relay', () => {
  it('limits the invitations one user sends per hour (429 with Retry-After), others unaffected', async () => {
    for (const n of [1, 2, 3]) {
      expect((await invite(`guest${n}@example.com`)).status).toBe(201);
    }
    const refused = await api.app.inject({
      method: 'POST',
      url: '/v7/organization_invite',
      headers: { authorization: 'Bearer alice', 'content-type': 'application/json' },
      payload: JSON.stringify({
        invitee: 'guest4@example.com',
        is_invited_to__organization: organizationId,
      }),
    });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    expect((await mails()).map((mail) => mail.recipient)).toEqual([
      'guest1@example.com',
      'guest2@example.com',
      'guest3@example.com',
    ]);
    expect((await invite('guest4@example.com', 'bob')).status).toBe(201);
  });

  it('does not count an invitation refused as a duplicate: it sends nothing', async () => {
    expect((await invite('again@example.com')).status).toBe(201);
    for (let n = 0; n < 3; n += 1) {
      expect((await invite('again@example.com')).status).toBe(409);
    }
    expect((await invite('other@example.com')).status).toBe(201);
  });

  it(`refuses a message over ${invitationMessageMaxLength} characters, on create and update`, async () => {
    const long = 'x'.repeat(invitationMessageMaxLength + 1);
    const refused = await invite('long@example.com', 'alice', long);
    expect(refused.status).toBe(400);
    expect(refused.text).toBe(`'message' must be at most ${invitationMessageMaxLength} characters`);
    expect(await mails()).toEqual([]);
    const created = await invite(
      'short@example.com',
      'alice',
      'x'.repeat(invitationMessageMaxLength),
    );
    expect(created.status).toBe(201);
    const id = (created.body as { id: number }).id;
    const patched = await api.send(
      'PATCH',
      `/organization_invite(${id})`,
      { message: long },
      'alice',
    );
    expect(patched.status).toBe(400);
  });

  it("quotes the message as the inviter's words, with links and HTML neutralised", async () => {
    const message = 'Log in at https://evil.example.com/login now\n<a href="http://x.io">here</a>';
    expect((await invite('quoted@example.com', 'alice', message)).status).toBe(201);
    const [mail] = await mails();
    expect(mail?.text_body).toContain(
      'alice wrote:\n> Log in at https[:]//evil[.]example[.]com/login now\n> <a href="http[:]//x[.]io">here</a>',
    );
    expect(mail?.html_body).toContain('<p style="margin:0 0 16px">alice wrote:</p>');
    expect(mail?.html_body).toMatch(
      /<blockquote[^>]*>Log in at https\[:\]\/\/evil\[\.\]example\[\.\]com\/login now<br>&lt;a href=&quot;http\[:\]\/\/x\[\.\]io&quot;&gt;here&lt;\/a&gt;<\/blockquote>/,
    );
    expect(`${mail?.text_body} ${mail?.html_body}`).not.toMatch(/evil\.example|x\.io/);
  });
});
