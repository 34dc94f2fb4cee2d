// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { fleetRow, fleetFixture } from '../../test-support/fleet-helpers.js';
import { fill } from '../../test-support/variables-pages.js';
import { releaseRow } from '../../test-support/release-fixtures.js';
import { renderReleasePages } from '../../test-support/release-pages.js';
import { addHint, createHint } from './release-rules.js';

afterEach(cleanup);

const pinnedTo = (id: number) =>
  fleetFixture({
    should_track_latest_release: false,
    should_be_running__release: [
      {
        id,
        commit: `${id}bcdef1234567890`,
        raw_version: `1.${id}.0`,
        status: 'success',
        created_at: '2025-01-01T00:00:00Z',
      },
    ],
  });

const setup = (releases: ReturnType<typeof releaseRow>[], application = pinnedTo(2)) => {
  const api = createFakeApi({
    user_application_membership: [fleetMember('developer')],
    application: [fleetRow(application, { owns__release: releases })],
    release: [...releases, releaseRow(9, { belongs_to__application: { __id: 13 } })],
  });
  renderReleasePages(api, '/fleets/12/releases', application);
  return { api, user: userEvent.setup() };
};

const table = () => screen.findByRole('table', { name: 'Releases' });

describe('ReleasesPage', { timeout: 60_000 }, () => {
  it("lists the fleet's releases newest first with status, author and the fleet's pin", async () => {
    setup([
      releaseRow(1),
      releaseRow(2, {
        release_tag: [{ id: 1, tag_key: 'env', value: 'field' }],
        is_running_on__device: [{ id: 1 }, { id: 2 }],
      }),
      releaseRow(3, { status: 'failed', is_invalidated: true }),
      // A build that reported just now runs; one silent for over 120 minutes has failed.
      releaseRow(4, {
        status: 'running',
        is_final: false,
        update_timestamp: new Date().toISOString(),
      }),
      releaseRow(5, { status: 'running', created_at: '2025-01-01T00:00:00.000Z' }),
    ]);
    const rows = within(await table())
      .getAllByRole('row')
      .slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual([
      '4bcdef1',
      '3bcdef1',
      '2bcdef1',
      '1bcdef1',
      '5bcdef1',
    ]);
    expect(rows[4]?.textContent).toMatch(/1\.5\.0.*Failed/);
    expect(rows[0]?.textContent).toMatch(/1\.4\.0.*Draft.*Running.*ada/);
    expect(rows[1]?.textContent).toMatch(/Invalidated.*Failed/);
    expect(within(rows[2] as HTMLElement).getByText('Pinned')).toBeTruthy();
    expect(within(rows[2] as HTMLElement).getByText('2 devices')).toBeTruthy();
    expect(within(rows[3] as HTMLElement).queryByText('Pinned')).toBeNull();
    expect(
      within(rows[2] as HTMLElement)
        .getByRole('link', { name: '2bcdef1' })
        .getAttribute('href'),
    ).toBe('/fleets/12/releases/2');
    // Another fleet's release is not listed.
    expect(screen.queryByText('9bcdef1')).toBeNull();
  });

  it('marks the release a tracking fleet runs', async () => {
    setup([releaseRow(1), releaseRow(2)], { ...pinnedTo(2), should_track_latest_release: true });
    await table();
    expect(screen.getByText('Latest, tracked')).toBeTruthy();
    expect(screen.queryByText('Pinned')).toBeNull();
  });

  it('searches by version and by tag key or value', async () => {
    const { user } = setup([
      releaseRow(1),
      releaseRow(2, { release_tag: [{ id: 1, tag_key: 'env', value: 'Field-Test' }] }),
    ]);
    await table();
    const search = screen.getByLabelText('Search by version or tag');
    await fill(user, search, 'field');
    await within(await table()).findByText('1.2.0');
    expect(within(await table()).queryByText('1.1.0')).toBeNull();
    await fill(user, search, '1.1');
    await within(await table()).findByText('1.1.0');
    expect(within(await table()).queryByText('1.2.0')).toBeNull();
    await fill(user, search, 'nothing');
    expect(await screen.findByText('No release matches “nothing”')).toBeTruthy();
  });

  it('pages 50 releases at a time', async () => {
    const many = Array.from({ length: 51 }, (_, index) =>
      releaseRow(index + 1, { created_at: new Date(Date.UTC(2025, 0, 1, 0, index)).toISOString() }),
    );
    const { user } = setup(many);
    expect(within(await table()).getAllByRole('row')).toHaveLength(51);
    expect(screen.getByText('1–50 of 51')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await screen.findByText('51–51 of 51');
    expect(within(await table()).getAllByRole('row')).toHaveLength(2);
    expect(within(await table()).getByText('1bcdef1')).toBeTruthy();
  });

  it('says what Create release and Add release each do', async () => {
    const { user } = setup([releaseRow(1)]);
    await table();
    for (const [name, hint] of [
      ['Create release', createHint],
      ['Add release', addHint],
    ] as const) {
      const button = screen.getByRole<HTMLButtonElement>('button', { name });
      // Create release is enabled once the role is known.
      await waitFor(() => expect(button.disabled).toBe(false));
      await user.hover(button);
      expect((await screen.findByRole('tooltip')).textContent).toBe(hint);
      expect(button.getAttribute('aria-describedby')).toBeTruthy();
      await user.unhover(button);
      await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
    }
  });

  it('does not let an observer create releases', async () => {
    const api = createFakeApi({
      user_application_membership: [fleetMember('observer')],
      application: [fleetRow(fleetFixture(), { owns__release: [releaseRow(1)] })],
      release: [releaseRow(1)],
    });
    renderReleasePages(api, '/fleets/12/releases');
    await table();
    // Disabled once the role is known, with the reason on the control.
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Create release' });
    await waitFor(() =>
      expect(button.parentElement?.getAttribute('aria-label')).toMatch(
        /do not have permission to do this/,
      ),
    );
    expect(button.disabled).toBe(true);
  });

  it('shows how to add a release when there is none', async () => {
    setup([], fleetFixture());
    const commands = await screen.findByLabelText('CLI commands');
    expect(commands.textContent).toContain('BALENARC_API_URL=http://localhost');
    expect(commands.textContent).toContain('balena deploy acme/garden-sensors');
    expect(screen.queryByRole('table', { name: 'Releases' })).toBeNull();
  });
});
