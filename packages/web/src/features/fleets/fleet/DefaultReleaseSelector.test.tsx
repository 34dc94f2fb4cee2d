// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../../test-support/fake-api.js';
import { releaseRow } from '../../../test-support/release-fixtures.js';
import { DefaultReleaseSelector } from './DefaultReleaseSelector.js';
import { fleetRow, fleetFixture, renderWithClient } from '../../../test-support/fleet-helpers.js';

afterEach(cleanup);

const setup = (application = fleetFixture()) => {
  const releases = [
    releaseRow(1),
    releaseRow(2, { is_invalidated: true }),
    releaseRow(3, { status: 'failed' }),
    releaseRow(4, { is_final: false }),
  ];
  const api = createFakeApi({
    application: [fleetRow(application, { owns__release: releases })],
    release: [...releases, releaseRow(9, { belongs_to__application: { __id: 13 } })],
  });
  renderWithClient(api.client, <DefaultReleaseSelector fleet={application} denied={null} />);
  return { api, user: userEvent.setup() };
};

const options = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.click(screen.getByRole('combobox', { name: 'Default release' }));
  return await screen.findAllByRole('option');
};

describe('release picker', { timeout: 30_000 }, () => {
  it('offers successful final releases, the invalidated one disabled, and pins the fleet', async () => {
    const { api, user } = setup();
    // The list stays open while the releases load.
    await user.click(screen.getByRole('combobox', { name: 'Default release' }));
    const listed = await waitFor(() => {
      const found = screen.getAllByRole('option');
      expect(found).toHaveLength(3);
      return found;
    });
    expect(listed.map((option) => option.textContent)).toEqual([
      'Track latest release',
      expect.stringMatching(/^1\.2\.02bcdef1 · Invalidated · cannot be pinned$/),
      expect.stringMatching(/^1\.1\.0/),
    ]);
    expect(listed[1]?.getAttribute('aria-disabled')).toBe('true');
    await user.click(listed[2] as HTMLElement);
    await waitFor(() =>
      expect(api.writes).toEqual([
        {
          method: 'PATCH',
          resource: 'application',
          id: 12,
          body: { should_be_running__release: 1, should_track_latest_release: false },
        },
      ]),
    );
  });

  it('goes back to tracking the latest release', async () => {
    const pinned = fleetFixture({
      should_track_latest_release: false,
      should_be_running__release: [
        {
          id: 1,
          commit: '1bcdef1234567890',
          raw_version: '1.1.0',
          status: 'success',
          created_at: '2025-01-01T10:00:00.000Z',
        },
      ],
    });
    const { api, user } = setup(pinned);
    expect(screen.getByRole<HTMLInputElement>('combobox', { name: 'Default release' }).value).toBe(
      '1.1.0',
    );
    const listed = await options(user);
    await user.click(listed[0] as HTMLElement);
    await waitFor(() =>
      expect(api.writes).toEqual([
        {
          method: 'PATCH',
          resource: 'application',
          id: 12,
          body: { should_track_latest_release: true },
        },
      ]),
    );
  });
});
