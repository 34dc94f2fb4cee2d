import type { BalenaSDK } from 'balena-sdk';
import { decodeInvitationToken } from '@flotilla/shared/invitations/invitation-token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import { startTestSmtpServer, type TestSmtpServer } from '../src/test-support/test-smtp-server.js';
import {
  createFleet,
  createOrganization,
  failureOf,
  newCredentials,
  newSdk,
  registerUser,
  type RegisteredUser,
  uniqueSuffix,
} from './contract-helpers.js';

// Invitees who sign up also get a verification mail.
const invitationSubject = / invited you to /;

// The invitation link of a mail: the console page and the token.
const invitationLink = (text: string): { path: string; token: string } => {
  const match =
    /(https?:\/\/[^\s]+?)(\/organization\/invitation\/|\/invitation\/)([A-Za-z0-9_.-]+)/.exec(text);
  if (!match?.[2] || !match[3]) throw new Error(`no invitation link in:\n${text}`);
  return { path: match[2], token: match[3] };
};

describe('invitations: balena-sdk invite models against Flotilla, mail through SMTP', () => {
  let server: TestServer;
  let smtp: TestSmtpServer;
  let admin: RegisteredUser;
  // The server's clock; a test moves it to send an invitation in the past.
  let clock = Date.now();

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    server = await startTestServer({
      config: { smtpUrl: smtp.url, mailFrom: 'Flotilla <noreply@flotilla.test>' },
      now: () => new Date(clock),
    });
    admin = await registerUser(server.url, 'inviter');
  });

  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  const mailedToken = async (email: string): Promise<string> => {
    const mail = await smtp.mailTo(email, { subject: invitationSubject });
    return invitationLink(mail.parsed.text ?? '').token;
  };

  it('organization invite: create, list, a multipart mail, accept after signing up; twice is an error', async () => {
    const organization = await createOrganization(admin.sdk, 'Invites');
    const invitee = newCredentials('invitee');
    const created = await admin.sdk.models.organization.invite.create(organization.handle, {
      invitee: invitee.email,
      roleName: 'member',
      message: 'Join us <3',
    });
    expect(created).toMatchObject({
      is_invited_to__organization: { __id: organization.id },
      message: 'Join us <3',
    });
    const listed = await admin.sdk.models.organization.invite.getAllByOrganization(
      organization.handle,
      { $expand: { invitee: { $select: 'email' } } },
    );
    expect(listed.map((row) => row.invitee)).toEqual([[{ email: invitee.email }]]);

    const mail = await smtp.mailTo(invitee.email, { subject: invitationSubject });
    expect(mail.parsed.from?.value).toEqual([
      { name: 'Flotilla', address: 'noreply@flotilla.test' },
    ]);
    expect(mail.parsed.subject).toContain(organization.name);
    expect(mail.raw).toMatch(/multipart\/alternative/);
    expect(mail.parsed.text).toContain('Join us <3');
    expect(mail.parsed.html).toContain('Join us &lt;3');
    const link = invitationLink(mail.parsed.text ?? '');
    expect(link.path).toBe('/organization/invitation/');
    expect(mail.parsed.html).toContain(link.token);
    expect(mail.parsed.text).toContain(
      `${server.url.replace('127.0.0.1', 'localhost')}/organization/invitation/`,
    );
    expect(decodeInvitationToken(link.token)).toMatchObject({
      kind: 'organization',
      name: organization.name,
      email: invitee.email,
    });

    const joiner = await registerUser(server.url, 'joiner');
    const wrongAccount = await failureOf(joiner.sdk.models.organization.invite.accept(link.token));
    expect(wrongAccount.message).toMatch(/sent to someone else/);

    const invited = await registerWith(server.url, invitee);
    await invited.models.organization.invite.accept(link.token);
    const memberships = await admin.sdk.models.organization.membership.getAllByOrganization(
      organization.handle,
      {
        $expand: {
          user: { $select: 'username' },
          organization_membership_role: { $select: 'name' },
        },
      },
    );
    expect(memberships).toHaveLength(2);
    expect(
      await admin.sdk.models.organization.invite.getAllByOrganization(organization.handle),
    ).toEqual([]);
    const again = await failureOf(invited.models.organization.invite.accept(link.token));
    expect(again.message).toMatch(/already been accepted/);
    // The new member sees the organization and its members' usernames.
    const seen = await invited.models.organization.get(organization.id, {
      $select: ['id', 'name'],
      $expand: {
        organization_membership: { $select: 'id', $expand: { user: { $select: 'username' } } },
      },
    });
    expect(seen.name).toBe(organization.name);
    const usernames = seen.organization_membership.flatMap((row) =>
      row.user.map((u) => u.username),
    );
    expect(usernames).toHaveLength(2);
  });

  it('refuses an invalid e-mail, a member, and a second invitation to the same person', async () => {
    const organization = await createOrganization(admin.sdk, 'Rules');
    const invalid = await failureOf(
      admin.sdk.models.organization.invite.create(organization.handle, {
        invitee: 'not an e-mail@',
      }),
    );
    expect(invalid.statusCode).toBe(400);
    expect(invalid.message).toMatch(/Invalid e-mail address/);
    const self = await admin.sdk.auth.getUserInfo();
    const member = await failureOf(
      admin.sdk.models.organization.invite.create(organization.handle, {
        invitee: self.email ?? '',
      }),
    );
    expect(member.statusCode).toBe(409);
    expect(member.message).toMatch(/already a member/);
    const email = `twice-${uniqueSuffix()}@example.com`;
    await admin.sdk.models.organization.invite.create(organization.handle, { invitee: email });
    const twice = await failureOf(
      admin.sdk.models.organization.invite.create(organization.handle, {
        invitee: ` ${email.toUpperCase()} `,
      }),
    );
    expect(twice.statusCode).toBe(409);
    expect(twice.message).toMatch(/already been invited/);
  });

  it('a revoked invitation, an expired one, and a forged one give clear errors', async () => {
    const organization = await createOrganization(admin.sdk, 'Revokes');
    const invitee = newCredentials('revoked');
    const invited = await registerWith(server.url, invitee);
    const created = await admin.sdk.models.organization.invite.create(organization.handle, {
      invitee: invitee.email,
    });
    const token = await mailedToken(invitee.email);
    await admin.sdk.models.organization.invite.revoke(created.id);
    expect((await failureOf(invited.models.organization.invite.accept(token))).message).toMatch(
      /revoked/,
    );

    // Sent eight days ago: a week later than its lifetime.
    const late = newCredentials('late');
    const lateUser = await registerWith(server.url, late);
    clock = Date.now() - 8 * 24 * 3600 * 1000;
    try {
      await admin.sdk.models.organization.invite.create(organization.handle, {
        invitee: late.email,
      });
    } finally {
      clock = Date.now();
    }
    const lateToken = await mailedToken(late.email);
    expect(
      (await failureOf(lateUser.models.organization.invite.accept(lateToken))).message,
    ).toMatch(/expired/);
    const [payload] = lateToken.split('.');
    const forged = `${payload}.${Buffer.from('forged').toString('base64url')}`;
    const refused = await failureOf(lateUser.models.organization.invite.accept(forged));
    expect(refused.statusCode).toBe(400);
    expect(refused.message).toMatch(/not valid/);
  });

  it('invites an existing account by username without showing its e-mail', async () => {
    const organization = await createOrganization(admin.sdk, 'ByName');
    const friend = await registerUser(server.url, 'friend');
    const { username } = await friend.sdk.auth.getUserInfo();
    await admin.sdk.models.organization.invite.create(organization.handle, {
      invitee: username,
      roleName: 'administrator',
    });
    const listed = await admin.sdk.models.organization.invite.getAllByOrganization(
      organization.handle,
      {
        $expand: {
          invitee: { $select: 'email' },
          organization_membership_role: { $select: 'name' },
        },
      },
    );
    expect(listed[0]?.invitee).toEqual([{ email: username }]);
    const token = await mailedToken(friend.email);
    await friend.sdk.models.organization.invite.accept(token);
    const memberships = await friend.sdk.models.organization.membership.getAllByOrganization(
      organization.handle,
      { $expand: { organization_membership_role: { $select: 'name' } } },
    );
    expect(
      memberships.flatMap((row) => row.organization_membership_role.map((r) => r.name)).sort(),
    ).toEqual(['administrator', 'administrator']);
  });

  it('fleet invite: application.invite create, list, accept; the invitee joins the fleet and its organization', async () => {
    const organization = await createOrganization(admin.sdk, 'FleetInvites');
    const fleet = await createFleet(admin.sdk, organization.id, 'invited');
    const invitee = newCredentials('fleetie');
    const invited = await registerWith(server.url, invitee);
    const created = await admin.sdk.models.application.invite.create(fleet.slug, {
      invitee: invitee.email,
      roleName: 'operator',
      message: 'Help with the devices',
    });
    expect(created).toMatchObject({ is_invited_to__application: { __id: fleet.id } });
    const listed = await admin.sdk.models.application.invite.getAllByApplication(fleet.id);
    expect(listed.map((row) => row.id)).toEqual([created.id]);
    const mail = await smtp.mailTo(invitee.email, { subject: invitationSubject });
    const link = invitationLink(mail.parsed.text ?? '');
    expect(link.path).toBe('/invitation/');
    const orgWrong = await failureOf(invited.models.organization.invite.accept(link.token));
    expect(orgWrong.message).toMatch(/fleet invitation/);
    await invited.models.application.invite.accept(link.token);
    const memberships = await admin.sdk.models.application.membership.getAllByApplication(
      fleet.id,
      {
        $expand: {
          user: { $select: 'username' },
          application_membership_role: { $select: 'name' },
        },
      },
    );
    expect(memberships.map((row) => row.application_membership_role[0]?.name)).toEqual([
      'operator',
    ]);
    const organizations = await invited.models.organization.getAll({ $select: ['id'] });
    expect(organizations.map((row) => row.id)).toContain(organization.id);
    expect((await invited.models.application.get(fleet.id, { $select: 'id' })).id).toBe(fleet.id);
    expect(await admin.sdk.models.application.invite.getAllByApplication(fleet.id)).toEqual([]);
  });

  it('signing up with an invitation token accepts it; with another e-mail it is refused', async () => {
    const organization = await createOrganization(admin.sdk, 'SignUps');
    const invitee = newCredentials('signup');
    await admin.sdk.models.organization.invite.create(organization.handle, {
      invitee: invitee.email,
    });
    const token = await mailedToken(invitee.email);
    const register = (email: string) =>
      fetch(`${server.url}/user/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email,
          password: invitee.password,
          invitationType: 'organization',
          invitationToken: token,
        }),
      });
    const other = await register(`other-${uniqueSuffix()}@example.com`);
    expect(other.status).toBe(400);
    expect(await other.text()).toMatch(/sent to someone else/);
    const signedUp = await register(invitee.email);
    expect(signedUp.status, await signedUp.clone().text()).toBe(200);
    const sdk = await loggedIn(server.url, await signedUp.text());
    const organizations = await sdk.models.organization.getAll({ $select: ['id'] });
    expect(organizations.map((row) => row.id)).toContain(organization.id);
  });
});

// A signed-up, logged-in SDK for the given credentials.
const registerWith = async (
  apiUrl: string,
  credentials: { email: string; password: string },
): Promise<BalenaSDK> => {
  const sdk = newSdk(apiUrl);
  await sdk.auth.loginWithToken(await sdk.auth.register(credentials));
  return sdk;
};

const loggedIn = async (apiUrl: string, token: string): Promise<BalenaSDK> => {
  const sdk = newSdk(apiUrl);
  await sdk.auth.loginWithToken(token);
  return sdk;
};
