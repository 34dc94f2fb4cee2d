import { createFlotillaClient } from '@flotilla/sdk/create-client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, logInAs, registerUser } from '../support/api-setup.js';
import { baseUrl, launchBrowser, newPage, uniqueEmail } from '../support/browser.js';
import { mailTo } from '../support/mailbox.js';
import { createRelease } from '../support/releases.js';
import { signupPage } from '../support/pages/auth-pages.js';

// An organization shared through an invitation and a team, from the console. The test
// server sends mail through SMTP to a real SMTP server of the test (support/mailbox.ts).
describe('organizations, invitations and teams', () => {
  let browser: Browser;
  let owner: ApiUser;
  let invitee: ApiUser;

  // The invitation's link, from the mail as it arrived: multipart, text and HTML.
  const invitationLink = async (to: string): Promise<string> => {
    // Accounts also get verification mail: take the invitation.
    const mail = await mailTo(to, / invited you to /);
    expect(mail.html).toContain('<a ');
    const [link] = mail.links;
    expect(link).toBeDefined();
    expect(mail.html).toContain(link ?? '');
    return new URL(link ?? '').pathname;
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('org-owner');
    invitee = await registerUser('org-invitee');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('creates an organization, invites a member by e-mail, and adds them to a new team', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Organizations' })
      .click();
    await page.getByRole('heading', { name: 'Organizations', level: 1 }).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/organizations.png', fullPage: true });

    await page.getByRole('button', { name: 'Create organization' }).click();
    const create = page.getByRole('dialog');
    await create.getByLabel('Organization name').fill('Orchard Ops');
    await create.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Orchard Ops', level: 1 }).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/organization-summary.png', fullPage: true });
    const organizationPath = new URL(page.url()).pathname;

    await page.getByRole('tab', { name: 'Members' }).click();
    await page.getByRole('button', { name: 'Invite member' }).click();
    const invite = page.getByRole('dialog');
    await invite.getByLabel('E-mail or username').fill(invitee.email);
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(`Invitation sent to ${invitee.email}`).waitFor();
    await page.getByRole('cell', { name: invitee.email }).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/organization-members.png', fullPage: true });

    // The invitee opens the mail's link, signed in, and accepts.
    const link = await invitationLink(invitee.email);
    expect(link).toMatch(/^\/organization\/invitation\//);
    const other = await newPage(browser);
    await logInAs(other, invitee);
    await other.goto(link);
    await other.getByText('Orchard Ops').waitFor();
    await other.screenshot({ path: 'data/e2e-screens/invitation.png', fullPage: true });
    await other.getByRole('button', { name: 'Accept invitation' }).click();
    await other.getByRole('heading', { name: 'Orchard Ops', level: 1 }).waitFor();
    expect(new URL(other.url()).pathname).toBe(organizationPath);
    await other.context().close();

    // The owner makes a team and puts the new member in it.
    await page.getByRole('tab', { name: 'Teams' }).click();
    await page.getByRole('button', { name: 'Create team' }).click();
    const team = page.getByRole('dialog');
    await team.getByLabel('Team name').fill('pickers');
    await team.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('link', { name: 'pickers' }).click();
    await page.getByRole('button', { name: 'Add member to team' }).click();
    const add = page.getByRole('dialog');
    const [row] = await invitee.client.pine.get({
      resource: 'user',
      options: { $select: ['username'], $filter: { id: invitee.userId } },
    });
    const username = row?.username ?? '';
    await add.getByRole('option', { name: username }).click();
    await add.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('link', { name: username }).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/team.png', fullPage: true });
    await page
      .getByRole('tablist', { name: 'Organization sections' })
      .getByRole('tab', { name: 'Teams' })
      .click();
    await page.getByRole('link', { name: 'pickers' }).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/organization-teams.png', fullPage: true });

    // A fleet of the organization: the member reaches it only once the team does.
    const organizationId = Number(organizationPath.split('/')[2]);
    const [deviceType] = await owner.client.pine.get({
      resource: 'device_type',
      options: { $select: ['id'], $filter: { slug: 'raspberrypi4-64' } },
    });
    const fleet = await owner.client.pine.post({
      resource: 'application',
      body: {
        app_name: 'Orchard-Sensors',
        organization: organizationId,
        is_for__device_type: deviceType?.id,
      },
    });
    const visibleToInvitee = async () =>
      (
        await invitee.client.pine.get({
          resource: 'application',
          options: { $select: ['id'], $filter: { id: fleet.id } },
        })
      ).length;
    expect(await visibleToInvitee()).toBe(0);
    await page.goto(`/fleets/${fleet.id}/teams`);
    await page.getByText('No team reaches this fleet yet.').waitFor();
    await page.getByRole('button', { name: 'Add team' }).click();
    const addTeam = page.getByRole('dialog');
    await addTeam.getByRole('option', { name: 'pickers' }).click();
    await addTeam.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('link', { name: 'pickers' }).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/fleet-teams.png', fullPage: true });
    expect(await visibleToInvitee()).toBe(1);
    // Developer access through the team: the member deploys a release to the fleet.
    const deployed = await createRelease(invitee, fleet.id, ['main']);
    const [target] = await owner.client.pine.get({
      resource: 'application',
      options: {
        $select: ['id'],
        $filter: { id: fleet.id, should_be_running__release: deployed.id },
      },
    });
    expect(target?.id).toBe(fleet.id);
    await page.getByRole('button', { name: 'Your access' }).click();
    await page.getByText('Administrator of Orchard Ops').waitFor();
    await page.screenshot({ path: 'data/e2e-screens/fleet-access-role.png', fullPage: true });
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    await page.getByRole('tab', { name: 'Members' }).click();
    await page.getByRole('heading', { name: 'Members', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Add member' }).click();
    const addMember = page.getByRole('dialog');
    await addMember.getByLabel('E-mail or username').fill(username);
    await addMember.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('link', { name: username }).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/fleet-members.png', fullPage: true });
    // Sorting by SAML presence is the server's (a count of each user's SAML accounts).
    await page.getByRole('button', { name: 'SAML' }).click();
    await page.locator('th[aria-sort="ascending"]', { hasText: 'SAML' }).waitFor();
    await page.getByRole('link', { name: username }).waitFor();
    expect(await page.getByText('Could not load the members').count()).toBe(0);
    await page.context().close();
  });

  it('a new person signs up from the invitation, joins, and loses access when removed; the last administrator cannot leave', async () => {
    const organization = await owner.client.pine.post({
      resource: 'organization',
      body: { name: 'Cider Co' },
    });
    const [memberRole] = await owner.client.pine.get({
      resource: 'organization_membership_role',
      options: { $select: ['id'], $filter: { name: 'member' } },
    });
    const email = uniqueEmail('org-newcomer');
    await owner.client.pine.post({
      resource: 'invitee__is_invited_to__organization',
      body: {
        invitee: email,
        is_invited_to__organization: organization.id,
        organization_membership_role: memberRole?.id ?? 0,
        message: 'Welcome aboard',
      },
    });
    const link = await invitationLink(email);

    // A guest: the invitation carries through sign-up, with the invited address filled in.
    const guest = await newPage(browser);
    await guest.goto(link);
    await guest.getByRole('link', { name: 'Sign up to accept' }).click();
    await guest.getByText('Signing up accepts your invitation to Cider Co.').waitFor();
    expect(await guest.getByLabel('E-mail').inputValue()).toBe(email);
    await guest.getByLabel('Password').fill('a-good-password');
    await guest.getByRole('button', { name: 'Sign up' }).click();
    // The profile step of a new account, then on to where the invitation leads.
    await signupPage(guest).completeProfile();
    await guest.getByRole('heading', { name: 'Organizations', level: 1 }).waitFor();
    await guest.getByRole('link', { name: 'Cider Co' }).waitFor();
    await guest.context().close();
    const newcomer = createFlotillaClient({ apiUrl: baseUrl() });
    await newcomer.auth.login({ email, password: 'a-good-password' });
    const readsCider = async () =>
      (
        await newcomer.pine.get({
          resource: 'organization',
          options: { $select: ['id'], $filter: { id: organization.id } },
        })
      ).length;
    expect(await readsCider()).toBe(1);

    // The owner removes the newcomer; the owner, the last administrator, cannot leave.
    const page = await newPage(browser);
    await logInAs(page, owner);
    await page.goto(`/orgs/${organization.id}/members`);
    const members = page.getByRole('table', { name: 'Members' });
    const own = members.getByRole('row').filter({ hasText: 'You' });
    expect(await own.getByRole('button', { name: 'Leave' }).isDisabled()).toBe(true);
    const [newcomerRow] = await newcomer.pine.get({
      resource: 'user',
      options: { $select: ['username'], $filter: { id: newcomer.auth.session()?.userId ?? 0 } },
    });
    const row = members.getByRole('row').filter({ hasText: newcomerRow?.username ?? '' });
    await row.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await page.getByText('Member removed').waitFor();
    expect(await readsCider()).toBe(0);
    await page.context().close();
  });
});
