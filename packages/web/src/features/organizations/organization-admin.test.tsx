// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { memberRemovalBlockedMessage } from '@flotilla/shared/devices/owner-credentials';
import type { FakeRow } from '../../test-support/fake-odata.js';
import { setAppsEnabled } from '../../ui/useAppsEnabled.js';
import { renderAt } from '../../test-support/render-organization.js';
import { acmeId, opsTeamId } from '../../test-support/organization-fixtures.js';

afterEach(() => {
  cleanup();
  setAppsEnabled(false);
});

const rowWith = (name: string): HTMLElement => {
  const row = screen.getByRole('link', { name }).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
};

// Bob's direct developer membership (70) of the organization's fleet, as the member page reads it.
const bobInFleet = (membership: FakeRow): FakeRow => {
  const [user] = membership.user as FakeRow[];
  if (user?.username !== 'bob') return membership;
  const fleet = {
    id: 12,
    app_name: 'garden-sensors',
    is_of__class: 'fleet',
    organization: { __id: acmeId },
  };
  const bob = {
    ...user,
    user_application_membership: [
      {
        id: 70,
        is_member_of__application: [fleet],
        application_membership_role: [{ name: 'developer' }],
      },
    ],
  };
  return { ...membership, user: [bob] };
};

describe('organization administration', { timeout: 60_000 }, () => {
  it("changes a member's organization role", async () => {
    const { api, user } = renderAt(`/orgs/${acmeId}/members`);
    // The role read back is a row (the body carries its id).
    api.shapeUpdated('organization_membership', (row, body) => ({
      ...row,
      organization_membership_role: [
        { name: body.organization_membership_role === 1 ? 'administrator' : 'member' },
      ],
    }));
    await screen.findByRole('link', { name: 'bob' });
    await user.click(within(rowWith('bob')).getByRole('combobox', { name: 'Role of bob' }));
    await user.click(await screen.findByRole('option', { name: 'Administrator' }));
    await waitFor(() =>
      expect(api.writes).toEqual([
        {
          method: 'PATCH',
          resource: 'organization_membership',
          id: 2,
          body: { organization_membership_role: 1 },
        },
      ]),
    );
  });

  it('a removal refused while devices need an update says why in the dialog', async () => {
    const { api, user } = renderAt(`/orgs/${acmeId}/members`);
    const message = memberRemovalBlockedMessage('bob', ['old-pi', 'old-nuc']);
    api.refuseNext('DELETE', 'organization_membership', 2, message, 409);
    await screen.findByRole('link', { name: 'bob' });
    await user.click(screen.getByRole('checkbox', { name: 'Select bob' }));
    await user.click(screen.getByRole('button', { name: 'Remove selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove bob?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByText(`Request error: ${message}`)).toBeTruthy();
    expect(screen.queryByText('Member removed')).toBeNull();
  });

  it('the members list shows its load error with a retry', async () => {
    const { api, user } = renderAt(`/orgs/${acmeId}/members`, 'administrator');
    api.refuseNextRead('user', 'database away');
    expect(await screen.findByText('Request error: database away')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'bob' })).toBeTruthy();
  });

  it("the member page changes and removes the member's fleet role", async () => {
    const { api, user } = renderAt(`/orgs/${acmeId}/members/2/fleets`, 'administrator', (data) => {
      data.organization_membership = (data.organization_membership ?? []).map(bobInFleet);
    });
    const table = await screen.findByRole('table', { name: 'Fleets access' });
    await user.click(within(table).getByRole('combobox', { name: 'Role on garden-sensors' }));
    await user.click(await screen.findByRole('option', { name: 'Observer' }));
    await waitFor(() =>
      expect(api.writes).toContainEqual({
        method: 'PATCH',
        resource: 'user_application_membership',
        id: 70,
        body: { application_membership_role: 10 },
      }),
    );
    await user.click(within(table).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(api.writes).toContainEqual({
        method: 'DELETE',
        resource: 'user_application_membership',
        id: 70,
        body: undefined,
      }),
    );
  });

  it('the member page shows a load error, and a plain member sees roles without controls', async () => {
    const { api } = renderAt(`/orgs/${acmeId}/members/2/fleets`);
    // The member's own read (the layout reads the memberships too, for the access).
    api.refuseNextRead('organization_membership', 'database away', {
      matches: (url) => url.searchParams.get('$filter')?.startsWith('id eq 2') === true,
    });
    expect(await screen.findByText('Request error: database away')).toBeTruthy();
    cleanup();
    renderAt(`/orgs/${acmeId}/members/2/fleets`, 'member', (data) => {
      data.organization_membership = (data.organization_membership ?? []).map(bobInFleet);
    });
    const table = await screen.findByRole('table', { name: 'Fleets access' });
    expect(within(table).getByText('Developer')).toBeTruthy();
    expect(within(table).queryByRole('combobox')).toBeNull();
    expect(within(table).queryByRole('button', { name: 'Remove' })).toBeNull();
  });

  it("the team page changes the team's fleet role and removes the access", async () => {
    const { api, user } = renderAt(`/orgs/${acmeId}/teams/${opsTeamId}/fleets`);
    const table = await screen.findByRole('table', { name: 'Fleets access' });
    await user.click(within(table).getByRole('combobox', { name: 'Role on garden-sensors' }));
    await user.click(await screen.findByRole('option', { name: 'Operator' }));
    await waitFor(() =>
      expect(api.writes).toContainEqual({
        method: 'PATCH',
        resource: 'team_application_access',
        id: 60,
        body: { application_membership_role: 12 },
      }),
    );
    await user.click(within(table).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(api.writes).toContainEqual({
        method: 'DELETE',
        resource: 'team_application_access',
        id: undefined,
        body: undefined,
        filter: `team eq ${opsTeamId} and grants_access_to__application eq 12`,
      }),
    );
  });

  it('the team page shows a load error', async () => {
    const { api } = renderAt(`/orgs/${acmeId}/teams/${opsTeamId}`);
    api.refuseNextRead('team', 'database away');
    expect(await screen.findByText('Request error: database away')).toBeTruthy();
  });

  it('deleting a team sends DELETE team(id), as balena-sdk does', async () => {
    const { api, user } = renderAt(`/orgs/${acmeId}/teams`);
    await screen.findByRole('link', { name: 'ops' });
    await user.click(within(rowWith('ops')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete team' }));
    expect(await screen.findByText('Team deleted')).toBeTruthy();
    expect(api.writes).toEqual([
      { method: 'DELETE', resource: 'team', id: opsTeamId, body: undefined },
    ]);
  });
});
