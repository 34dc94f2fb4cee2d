// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderAt } from '../../test-support/render-organization.js';
import { acmeId } from '../../test-support/organization-fixtures.js';

afterEach(cleanup);

describe('organization screens', { timeout: 60_000 }, () => {
  it('/orgs lists the organizations with the role', async () => {
    renderAt('/orgs');
    const link = await screen.findByRole('link', { name: 'Acme' });
    expect(link.getAttribute('href')).toBe(`/orgs/${acmeId}`);
  });

  it('/orgs: the sole administrator cannot leave; deleting with fleets needs the typed name', async () => {
    const { user } = renderAt('/orgs');
    const row = (await screen.findByRole('link', { name: 'Acme' })).closest('tr');
    if (!row) throw new Error('no row');
    expect(within(row).getByRole('button', { name: 'Leave' }).hasAttribute('disabled')).toBe(true);
    await user.click(within(row).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    const confirm = within(dialog).getByRole('button', { name: 'Delete organization' });
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await user.type(within(dialog).getByLabelText('Type "Acme" to confirm'), 'Acme');
    expect(confirm.hasAttribute('disabled')).toBe(false);
  });

  it('creating an organization refuses a name already used, ignoring case', async () => {
    const { user } = renderAt('/orgs');
    await screen.findByRole('link', { name: 'Acme' });
    await user.click(screen.getByRole('button', { name: 'Create organization' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Organization name/), 'acme');
    expect(
      within(dialog).getByText('This name is already used by one of your organizations'),
    ).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Create' }).hasAttribute('disabled')).toBe(
      true,
    );
  });

  it('creating an organization says a 300-character name is too long, never cutting it', async () => {
    const { user } = renderAt('/orgs');
    await screen.findByRole('link', { name: 'Acme' });
    await user.click(screen.getByRole('button', { name: 'Create organization' }));
    const dialog = await screen.findByRole('dialog');
    const field = within(dialog).getByLabelText(/Organization name/);
    // A paste: the whole text arrives at once.
    await user.click(field);
    await user.paste('n'.repeat(300));
    expect(field).toHaveProperty('value', 'n'.repeat(300));
    expect(
      within(dialog).getByText('The organization name must be at most 255 characters (it has 300)'),
    ).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Create' }).hasAttribute('disabled')).toBe(
      true,
    );
  });

  it('a non-numeric organization id says so and goes up to /orgs', async () => {
    const { router } = renderAt('/orgs/abc');
    expect(await screen.findByText('invalid id passed in url')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/orgs');
  });

  it('the members page lists members with their teams and pending invitations', async () => {
    renderAt(`/orgs/${acmeId}/members`);
    const bob = await screen.findByRole('link', { name: 'bob' });
    const row = bob.closest('tr');
    if (!row) throw new Error('no row');
    expect(within(row).getByRole('link', { name: 'ops' })).toBeTruthy();
    expect(await screen.findByText('carol@example.com')).toBeTruthy();
  });

  it('an administrator invites by e-mail with a role', async () => {
    const { api, user } = renderAt(`/orgs/${acmeId}/members`);
    await user.click(await screen.findByRole('button', { name: 'Invite member' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/e-mail or username/i), 'dave@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to dave@example.com')).toBeTruthy();
    expect(api.writes).toContainEqual({
      method: 'POST',
      resource: 'invitee__is_invited_to__organization',
      id: undefined,
      body: {
        invitee: 'dave@example.com',
        is_invited_to__organization: acmeId,
        organization_membership_role: 2,
        message: null,
      },
    });
  });

  it('an administrator removes selected members after confirming', async () => {
    const { api, user } = renderAt(`/orgs/${acmeId}/members`);
    await screen.findByRole('link', { name: 'bob' });
    await user.click(screen.getByRole('checkbox', { name: 'Select bob' }));
    await user.click(screen.getByRole('button', { name: 'Remove selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove bob?' });
    expect(api.writes).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Member removed')).toBeTruthy();
    expect(api.writes).toEqual([
      { method: 'DELETE', resource: 'organization_membership', id: 2, body: undefined },
    ]);
  });

  it('a plain member sees no invite button nor the pending invitations', async () => {
    renderAt(`/orgs/${acmeId}/members`, 'member');
    await screen.findByRole('link', { name: 'bob' });
    expect(screen.queryByRole('button', { name: 'Invite member' })).toBeNull();
    expect(screen.queryByText('carol@example.com')).toBeNull();
  });

  it("a member's page lists their teams; an administrator removes them from one", async () => {
    const { api, user } = renderAt(`/orgs/${acmeId}/members/2`);
    const table = await screen.findByRole('table', { name: 'Teams of the member' });
    expect(within(table).getByRole('link', { name: 'ops' })).toBeTruthy();
    await user.click(within(table).getByRole('button', { name: 'Remove from team' }));
    await waitFor(() =>
      expect(api.writes).toContainEqual({
        method: 'DELETE',
        resource: 'team_membership',
        id: 40,
        body: undefined,
      }),
    );
  });

  it('the teams page creates a team', async () => {
    const { api, user } = renderAt(`/orgs/${acmeId}/teams`);
    expect(await screen.findByRole('link', { name: 'ops' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create team' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/name/i), 'field');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('link', { name: 'field' })).toBeTruthy();
    expect(api.writes).toContainEqual({
      method: 'POST',
      resource: 'team',
      id: undefined,
      body: { name: 'field', belongs_to__organization: acmeId },
    });
  });

  it('a plain member neither creates teams nor renames the organization', async () => {
    renderAt(`/orgs/${acmeId}/teams`, 'member');
    expect(await screen.findByRole('link', { name: 'ops' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create team' })).toBeNull();
    cleanup();
    renderAt(`/orgs/${acmeId}`, 'member');
    const name = await screen.findByRole('textbox', { name: /name/i });
    expect(name.hasAttribute('disabled')).toBe(true);
  });

  it('the team page adds an organization member to the team', async () => {
    const { api, user } = renderAt(`/orgs/${acmeId}/teams/20`);
    expect(await screen.findByRole('link', { name: 'bob' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add member to team' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByText('ada'));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(api.writes).toContainEqual({
        method: 'POST',
        resource: 'team_membership',
        id: undefined,
        body: { username: 'ada', is_member_of__team: 20 },
      }),
    );
  });

  it("the team page lists the team's fleet access", async () => {
    renderAt(`/orgs/${acmeId}/teams/20/fleets`);
    expect(await screen.findByRole('link', { name: 'garden-sensors' })).toBeTruthy();
  });
});
