// @vitest-environment jsdom
import { memberRemovalBlockedMessage } from '@flotilla/shared/devices/owner-credentials';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fleetRow, fleetFixture } from '../../test-support/fleet-helpers.js';
import { renderAt } from '../../test-support/render-fleet-access.js';

afterEach(cleanup);

describe('fleet members: refusals in words', { timeout: 60_000 }, () => {
  it("the notice names the application's class", async () => {
    renderAt('/blocks/12/members', null, (data) => {
      data.application = [fleetRow(fleetFixture({ is_of__class: 'block' }))];
    });
    expect(
      await screen.findByText('You are not authorised to view and edit the members of this block.'),
    ).toBeTruthy();
    cleanup();
    renderAt('/apps/12/teams', null, (data) => {
      data.application = [fleetRow(fleetFixture({ is_of__class: 'app' }))];
    });
    expect(
      await screen.findByText('You are not authorised to view and edit the teams of this app.'),
    ).toBeTruthy();
  });

  it('the teams tab of an app says app, not fleet', async () => {
    const { user } = renderAt('/apps/12/teams', 'administrator', (data) => {
      data.application = [fleetRow(fleetFixture({ is_of__class: 'app' }))];
    });
    await screen.findByRole('link', { name: 'ops' });
    await user.click(screen.getByRole('button', { name: 'Add team' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add team to app' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const ops = screen.getByRole('link', { name: 'ops' }).closest('tr');
    if (!ops) throw new Error('no row for ops');
    await user.click(within(ops).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('ops no longer reaches this app')).toBeTruthy();
    expect(await screen.findByText('No team reaches this app yet.')).toBeTruthy();
  });

  it('a removal the server refuses (devices need an update) says why and keeps the member', async () => {
    const { api, user } = renderAt('/fleets/12/members');
    const message = memberRemovalBlockedMessage('bob', ['old-pi']);
    api.refuseNext('DELETE', 'user_application_membership', 2, message, 409);
    const bob = (await screen.findByRole('link', { name: 'bob' })).closest('tr');
    if (!bob) throw new Error('no row for bob');
    await user.click(within(bob).getByRole('button', { name: 'Remove' }));
    expect(
      (await screen.findByText(`Request error: ${message}`)).closest('[role="alert"]'),
    ).toBeTruthy();
    expect(screen.queryByText('bob removed')).toBeNull();
    expect(screen.getByRole('link', { name: 'bob' })).toBeTruthy();
  });
});
