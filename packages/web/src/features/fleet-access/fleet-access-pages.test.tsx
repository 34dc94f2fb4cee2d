// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { organizationMember, testUserId } from '../../test-support/fixtures.js';
import { renderAt } from '../../test-support/render-fleet-access.js';

afterEach(cleanup);

const rowOf = (name: string): HTMLElement => {
  const row = screen.getByRole('link', { name }).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
};

describe('fleet members and teams', { timeout: 60_000 }, () => {
  it('lists members linking to the organization member page, with SAML and invitations', async () => {
    renderAt('/fleets/12/members');
    const bob = await screen.findByRole('link', { name: 'bob' });
    expect(bob.getAttribute('href')).toBe('/orgs/3/members/102');
    expect(within(rowOf('bob')).getByText('SAML')).toBeTruthy();
    expect(await screen.findByText('carol@example.com')).toBeTruthy();
  });

  it('sorts by username and by SAML presence, on the server', async () => {
    const { api, user } = renderAt('/fleets/12/members');
    await screen.findByRole('link', { name: 'bob' });
    const names = () =>
      within(screen.getByRole('table', { name: 'Members' }))
        .getAllByRole('link')
        .map((link) => link.textContent);
    expect(names()).toEqual(['ada', 'bob']);
    await user.click(screen.getByRole('button', { name: 'SAML' }));
    await user.click(screen.getByRole('button', { name: 'SAML' }));
    await waitFor(() => expect(names()).toEqual(['bob', 'ada']));
    expect(api.reads.map((url) => url.searchParams.get('$orderby'))).toContain(
      'owns__saml_account/$count desc,username asc',
    );
    await user.click(screen.getByRole('button', { name: 'Username' }));
    await user.click(screen.getByRole('button', { name: 'Username' }));
    await waitFor(() => expect(names()).toEqual(['bob', 'ada']));
  });

  it('adds a username as a member and invites an e-mail address', async () => {
    const { api, user } = renderAt('/fleets/12/members');
    await screen.findByRole('link', { name: 'bob' });
    await user.click(screen.getByRole('button', { name: 'Add member' }));
    let dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/e-mail or username/i), 'dave');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(api.writes).toContainEqual({
        method: 'POST',
        resource: 'user_application_membership',
        id: undefined,
        body: { username: 'dave', is_member_of__application: 12, application_membership_role: 14 },
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Add member' }));
    dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/e-mail or username/i), 'erin@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Invitation sent to erin@example.com')).toBeTruthy();
    expect(api.writes).toContainEqual({
      method: 'POST',
      resource: 'invitee__is_invited_to__application',
      id: undefined,
      body: {
        invitee: 'erin@example.com',
        is_invited_to__application: 12,
        application_membership_role: 14,
        message: null,
      },
    });
  });

  it('an operator sees the members but may not add, change or remove them', async () => {
    renderAt('/fleets/12/members', 'operator');
    await screen.findByRole('link', { name: 'bob' });
    expect(screen.getByRole('button', { name: 'Add member' }).hasAttribute('disabled')).toBe(true);
    expect(
      within(rowOf('bob')).getByRole('button', { name: 'Remove' }).hasAttribute('disabled'),
    ).toBe(true);
    expect(screen.queryByText('carol@example.com')).toBeTruthy();
  });

  it('an observer with a direct role leaves the fleet from its members page', async () => {
    const { api, router, user } = renderAt('/fleets/12/members', 'observer');
    await user.click(await screen.findByRole('button', { name: 'Remove my access' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Remove access' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/fleets'));
    expect(api.writes).toContainEqual({
      method: 'DELETE',
      resource: 'user_application_membership',
      id: 1,
      body: undefined,
    });
  });

  it('offers no way to leave to a user without a direct role', async () => {
    renderAt('/fleets/12/members', null);
    await screen.findByText('You are not authorised to view and edit the members of this fleet.');
    expect(screen.queryByRole('button', { name: 'Remove my access' })).toBeNull();
  });

  it('without a role on the fleet, says the user may neither view nor edit its members and teams', async () => {
    renderAt('/fleets/12/members', null);
    expect(
      await screen.findByText('You are not authorised to view and edit the members of this fleet.'),
    ).toBeTruthy();
    cleanup();
    renderAt('/fleets/12/teams', null);
    expect(
      await screen.findByText('You are not authorised to view and edit the teams of this fleet.'),
    ).toBeTruthy();
  });

  it('lists the teams reaching the fleet and adds another with a role', async () => {
    const { api, user } = renderAt('/fleets/12/teams');
    const ops = await screen.findByRole('link', { name: 'ops' });
    expect(ops.getAttribute('href')).toBe('/orgs/3/teams/20');
    await user.click(screen.getByRole('button', { name: 'Add team' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByText('field'));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(api.writes).toContainEqual({
        method: 'POST',
        resource: 'team_application_access',
        id: undefined,
        body: { team: 21, grants_access_to__application: 12, application_membership_role: 14 },
      }),
    );
  });

  it('the access-role dialog says where each role comes from, with links to manage it', async () => {
    const { user } = renderAt('/fleets/12', 'observer', (data) => {
      data.organization_membership = [organizationMember('member')];
      data.team_application_access = [
        {
          id: 60,
          grants_access_to__application: { __id: 12 },
          team: [{ id: 20, name: 'ops', team_membership: [{ id: 1, user: { __id: testUserId } }] }],
          application_membership_role: [{ name: 'developer' }],
        },
      ];
    });
    await user.click(await screen.findByRole('button', { name: 'Your access' }));
    const list = await screen.findByRole('list', { name: 'Where your access comes from' });
    expect(within(list).getByText('Member of Acme')).toBeTruthy();
    expect(within(list).getByText('Developer through the team ops')).toBeTruthy();
    expect(within(list).getByText('Observer, as a member of this fleet')).toBeTruthy();
    expect(
      within(list)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/orgs/3/members', '/orgs/3/teams/20/members', '/fleets/12/members']);
  });
});
