// @vitest-environment jsdom
import { memberRemovalBlockedMessage } from '@flotilla/shared/devices/owner-credentials';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderAt as renderFleetAt } from '../../test-support/render-fleet-access.js';
import { renderAt } from '../../test-support/render-organization.js';
import { acmeId, opsTeamId } from '../../test-support/organization-fixtures.js';

afterEach(cleanup);

// Team writes that would cut off bob's outdated devices are refused (409);
// each place that makes them shows the server's words and keeps the row.
const message = memberRemovalBlockedMessage('bob', ['old-pi', 'old-nuc']);

const rowOf = (link: HTMLElement): HTMLElement => {
  const row = link.closest('tr');
  if (!row) throw new Error(`no row for ${link.textContent ?? ''}`);
  return row;
};

const expectAlert = async (): Promise<void> => {
  const text = await screen.findByText(`Request error: ${message}`);
  expect(text.closest('[role="alert"]')).toBeTruthy();
};

describe('team writes refused while devices need an update', { timeout: 60_000 }, () => {
  it('the team page keeps a member whose removal is refused', async () => {
    const { api, user } = renderAt(`/orgs/${acmeId}/teams/${opsTeamId}`);
    api.refuseNext('DELETE', 'team_membership', undefined, message, 409);
    const table = await screen.findByRole('table', { name: 'Team members' });
    const bob = rowOf(within(table).getByRole('link', { name: 'bob' }));
    await user.click(within(bob).getByRole('button', { name: 'Remove' }));
    await expectAlert();
    expect(screen.queryByText('Member removed')).toBeNull();
    expect(within(table).getByRole('link', { name: 'bob' })).toBeTruthy();
  });

  it('the team page keeps a fleet access whose removal is refused', async () => {
    const { api, user } = renderAt(`/orgs/${acmeId}/teams/${opsTeamId}/fleets`);
    api.refuseNext('DELETE', 'team_application_access', undefined, message, 409);
    const table = await screen.findByRole('table', { name: 'Fleets access' });
    const fleet = rowOf(within(table).getByRole('link', { name: 'garden-sensors' }));
    await user.click(within(fleet).getByRole('button', { name: 'Remove' }));
    await expectAlert();
    expect(within(table).getByRole('link', { name: 'garden-sensors' })).toBeTruthy();
  });

  it('the teams list says why a team cannot be deleted, in its dialog', async () => {
    const { api, user } = renderAt(`/orgs/${acmeId}/teams`);
    api.refuseNext('DELETE', 'team', opsTeamId, message, 409);
    const ops = rowOf(await screen.findByRole('link', { name: 'ops' }));
    await user.click(within(ops).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the team ops?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete team' }));
    expect(await within(dialog).findByText(`Request error: ${message}`)).toBeTruthy();
    expect(screen.queryByText('Team deleted')).toBeNull();
  });

  it('the member page keeps a team membership whose removal is refused', async () => {
    const { api, user } = renderAt(`/orgs/${acmeId}/members/2`);
    api.refuseNext('DELETE', 'team_membership', 40, message, 409);
    const table = await screen.findByRole('table', { name: 'Teams of the member' });
    await user.click(within(table).getByRole('button', { name: 'Remove from team' }));
    await expectAlert();
    expect(within(table).getByRole('link', { name: 'ops' })).toBeTruthy();
  });

  it("the fleet's Teams tab keeps a team whose access removal is refused", async () => {
    const { api, user } = renderFleetAt('/fleets/12/teams');
    api.refuseNext('DELETE', 'team_application_access', 60, message, 409);
    const ops = rowOf(await screen.findByRole('link', { name: 'ops' }));
    await user.click(within(ops).getByRole('button', { name: 'Remove' }));
    await expectAlert();
    expect(screen.queryByText('ops no longer reaches this fleet')).toBeNull();
    expect(screen.getByRole('link', { name: 'ops' })).toBeTruthy();
  });
});
