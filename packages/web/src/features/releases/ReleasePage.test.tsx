// @vitest-environment jsdom
import { releaseRuleMessages } from '@flotilla/shared/releases/release-status';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { fleetRow, fleetFixture } from '../../test-support/fleet-helpers.js';
import { dialogsClosed, fill } from '../../test-support/variables-pages.js';
import { releaseRow } from '../../test-support/release-fixtures.js';
import { renderReleasePages } from '../../test-support/release-pages.js';

afterEach(cleanup);

const setup = (path: string, release = releaseRow(5), role = 'developer') => {
  const api = createFakeApi({
    user_application_membership: [fleetMember(role)],
    application: [fleetRow(fleetFixture(), { owns__release: [release] })],
    release: [release, releaseRow(9, { belongs_to__application: { __id: 13 } })],
  });
  const router = renderReleasePages(api, path);
  return { api, router, user: userEvent.setup() };
};

const summary = () => screen.findByRole('region', { name: 'Release summary' });
const settings = () => screen.findByRole('region', { name: 'Release settings' });
const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name });

describe('release page', { timeout: 60_000 }, () => {
  it('shows the summary fields, tags, services and composition', async () => {
    setup(
      '/fleets/12/releases/5',
      releaseRow(5, {
        release_tag: [{ id: 1, tag_key: 'env', value: 'field' }],
        known_issue_list: 'Wi-Fi drops on boot',
        is_running_on__device: [{ id: 1 }, { id: 2 }],
      }),
    );
    const fields = await summary();
    for (const text of [
      '1.5.0',
      'Succeeded',
      '84.0 MB',
      'ada',
      '5bcdef1234567890',
      '2 devices',
      '2 min 5 s',
      'env: field',
    ]) {
      expect(within(fields).getAllByText(text).length).toBeGreaterThan(0);
    }
    expect(within(fields).getByLabelText<HTMLTextAreaElement>('Known issues').value).toBe(
      'Wi-Fi drops on boot',
    );
    const services = screen.getByRole('table', { name: 'Services and images' });
    expect(within(services).getByText('main')).toBeTruthy();
    expect(within(services).getByText('No Dockerfile available')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Composition' }).textContent).toContain('nginx:1.27');
    expect(screen.getByRole('tab', { name: 'Settings' })).toBeTruthy();
  });

  it("shows the release's build log and each service's", async () => {
    const { user } = setup('/fleets/12/releases/5');
    await summary();
    const log = () => screen.getByLabelText('Build log lines').textContent;
    expect(log()).toBe('[main] Using image nginx:1.27\nBuild succeeded');
    await user.click(screen.getByRole('combobox', { name: 'Service' }));
    await user.click(await screen.findByRole('option', { name: 'main' }));
    expect(log()).toBe('[main] Using image nginx:1.27');
  });

  it('hides settings, composition and an empty known-issue list from observers', async () => {
    setup('/fleets/12/releases/5', releaseRow(5), 'observer');
    const fields = await summary();
    expect(within(fields).queryByText('Known issues')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Composition' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Build log' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Settings' })).toBeNull();
    expect(screen.getByLabelText<HTMLTextAreaElement>('Release notes').disabled).toBe(true);
    expect(screen.queryByRole('form', { name: 'Add a tag' })).toBeNull();
  });

  it('sends a user who may not edit releases home from the settings', async () => {
    const { router } = setup('/fleets/12/releases/5/settings', releaseRow(5), 'safe-operator');
    expect(await screen.findByText('Home')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByRole('region', { name: 'Release settings' })).toBeNull();
  });

  it('shows an error and goes up to the release list for a non-numeric id', async () => {
    const { router } = setup('/fleets/12/releases/abc');
    expect(await screen.findByText('invalid id passed in url')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/fleets/12/releases'));
  });

  it("says not found for another fleet's release", async () => {
    setup('/fleets/12/releases/9');
    expect(await screen.findByText('Release not found')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to releases' }).getAttribute('href')).toBe(
      '/fleets/12/releases',
    );
  });

  it('adds and removes tags and saves known issues', async () => {
    const { api, user } = setup(
      '/fleets/12/releases/5',
      releaseRow(5, { release_tag: [{ id: 1, tag_key: 'env', value: 'field' }] }),
    );
    api.shapeCreated('release_tag', (body) => ({ ...body, release: { __id: body.release } }));
    const fields = await summary();
    await fill(user, within(fields).getByLabelText('Tag name'), 'env');
    expect(within(fields).getByText('This release already has this tag')).toBeTruthy();
    await fill(user, within(fields).getByLabelText('Tag name'), 'site');
    await fill(user, within(fields).getByLabelText('Tag value'), 'north');
    await user.click(within(fields).getByRole('button', { name: 'Add tag' }));
    await waitFor(() => expect(api.writes).toHaveLength(1));
    await user.click(within(fields).getByLabelText('Remove tag env'));
    await fill(user, within(fields).getByLabelText('Known issues'), 'Slow boot');
    await user.click(within(fields).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.writes).toHaveLength(3));
    expect(api.writes).toEqual([
      {
        method: 'POST',
        resource: 'release_tag',
        id: undefined,
        body: { release: 5, tag_key: 'site', value: 'north' },
      },
      { method: 'DELETE', resource: 'release_tag', id: 1, body: undefined },
      { method: 'PATCH', resource: 'release', id: 5, body: { known_issue_list: 'Slow boot' } },
    ]);
  });

  it('saves notes as the user types', async () => {
    const { api, user } = setup('/fleets/12/releases/5');
    await summary();
    await fill(user, screen.getByLabelText('Release notes'), 'Field trial build');
    await screen.findByText('Saved');
    expect(api.writes).toEqual([
      { method: 'PATCH', resource: 'release', id: 5, body: { note: 'Field trial build' } },
    ]);
  });

  it('edits the version with the three-digit rule', async () => {
    const { api, user } = setup('/fleets/12/releases/5/settings');
    await settings();
    const field = screen.getByLabelText('Release version');
    await fill(user, field, '2.0.0-beta');
    expect(screen.getByText(/three numbers such as 1.2.3/)).toBeTruthy();
    expect(button('Save version').disabled).toBe(true);
    await fill(user, field, '2.0.0');
    await user.click(button('Save version'));
    await screen.findByText('Release updated');
    expect(api.writes).toEqual([
      { method: 'PATCH', resource: 'release', id: 5, body: { semver: '2.0.0' } },
    ]);
  });

  it('invalidates a release, and cannot validate a failed one', async () => {
    const { api, user } = setup('/fleets/12/releases/5/settings');
    await settings();
    expect(button('Finalize').disabled).toBe(true);
    await user.click(button('Invalidate'));
    await screen.findByText('Release updated');
    expect(api.writes).toEqual([
      { method: 'PATCH', resource: 'release', id: 5, body: { is_invalidated: true } },
    ]);
    cleanup();
    setup('/fleets/12/releases/5/settings', releaseRow(5, { status: 'failed' }));
    await settings();
    expect(button('Invalidate').disabled).toBe(true);
    await userEvent.setup().hover(button('Invalidate').parentElement as HTMLElement);
    expect(await screen.findByText(releaseRuleMessages.cannotValidateFailed)).toBeTruthy();
  });

  it('refuses deleting a release a fleet runs, and deletes another, landing on the fleet', async () => {
    setup(
      '/fleets/12/releases/5/settings',
      releaseRow(5, { should_be_running_on__application: [{ id: 12 }] }),
    );
    await settings();
    expect(button('Delete release').disabled).toBe(true);
    expect(screen.getByText(releaseRuleMessages.cannotDeletePinned)).toBeTruthy();
    cleanup();
    const { api, router, user } = setup('/fleets/12/releases/5/settings');
    await settings();
    await user.click(button('Delete release'));
    const dialog = await screen.findByRole('dialog', { name: 'Delete release 1.5.0?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await dialogsClosed();
    expect(await screen.findByText('Fleet summary')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/fleets/12');
    expect(api.writes).toEqual([{ method: 'DELETE', resource: 'release', id: 5, body: undefined }]);
  });

  it("shows the server's refusal when deleting fails", async () => {
    const { api, user } = setup('/fleets/12/releases/5/settings');
    api.refuseNext('DELETE', 'release', 5, releaseRuleMessages.cannotDeletePinned);
    await settings();
    await user.click(button('Delete release'));
    const dialog = await screen.findByRole('dialog', { name: 'Delete release 1.5.0?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await within(dialog).findByRole('alert');
    expect(within(dialog).getByRole('alert').textContent).toContain(
      releaseRuleMessages.cannotDeletePinned,
    );
  });

  it('cancels a running build, and only a running one', async () => {
    expect(
      await (async () => {
        setup('/fleets/12/releases/5/settings');
        await settings();
        return button('Cancel build').disabled;
      })(),
    ).toBe(true);
    cleanup();
    const { api, user } = setup(
      '/fleets/12/releases/5/settings',
      releaseRow(5, { status: 'running', update_timestamp: new Date().toISOString() }),
    );
    await settings();
    await user.click(button('Cancel build'));
    await screen.findByText('Release updated');
    expect(api.writes).toEqual([
      {
        method: 'PATCH',
        resource: 'release',
        id: 5,
        body: { status: 'cancelled', end_timestamp: expect.any(String) },
      },
    ]);
  });

  it('gives a safe developer no delete', async () => {
    setup('/fleets/12/releases/5/settings', releaseRow(5), 'safe-developer');
    await settings();
    expect(button('Delete release').disabled).toBe(true);
    expect(button('Invalidate').disabled).toBe(false);
  });
});
