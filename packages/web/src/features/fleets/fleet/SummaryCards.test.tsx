// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DevicesCard } from './DevicesCard.js';
import { ReleasesCard } from './ReleasesCard.js';
import { SummaryCard } from './SummaryCard.js';
import { createFakeApi } from '../../../test-support/fake-api.js';
import { devicesWithStatus } from '../../../test-support/fixtures.js';
import { fleetRow, fleetFixture, renderWithClient } from '../../../test-support/fleet-helpers.js';

afterEach(cleanup);

describe('summary cards', () => {
  it('shows the block image reference and the release selector', () => {
    const { client } = createFakeApi({ release: [] });
    renderWithClient(
      client,
      <SummaryCard
        fleet={fleetFixture({ is_of__class: 'block' })}
        releaseDenied="You do not have the required permission"
      />,
    );
    expect(screen.getByText('aarch64')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy image reference' })).toBeTruthy();
    expect(screen.queryByText('Application type')).toBeNull();
    expect(
      (screen.getByRole('combobox', { name: 'Default release' }) as HTMLInputElement).disabled,
    ).toBe(true);
  });

  it('counts devices per status', async () => {
    const { client } = createFakeApi({ application: [fleetRow(fleetFixture())] });
    renderWithClient(client, <DevicesCard fleet={fleetFixture({ owns__device: 0 })} />);
    expect(screen.getByLabelText('0 devices in total')).toBeTruthy();
    expect(await screen.findByText('No devices yet')).toBeTruthy();
    cleanup();
    const devices = devicesWithStatus('operational', 'operational', 'updating');
    const some = createFakeApi({
      application: [fleetRow(fleetFixture(), { owns__device: devices })],
    });
    renderWithClient(some.client, <DevicesCard fleet={fleetFixture({ owns__device: 3 })} />);
    expect(await screen.findByText('2 Online')).toBeTruthy();
    expect(screen.getByText('1 Updating')).toBeTruthy();
    expect(screen.getByText('0 Configuring')).toBeTruthy();
  });

  it('has an empty state and lists the newest releases', async () => {
    const empty = createFakeApi({ application: [fleetRow(fleetFixture())] });
    renderWithClient(empty.client, <ReleasesCard fleet={fleetFixture()} />);
    expect(await screen.findByText(/No releases yet/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'How to add a release' }).getAttribute('href')).toBe(
      '/fleets/12/releases',
    );
    cleanup();
    const release = (id: number, status: string, belongsTo = 12) => ({
      id,
      commit: `abcdef${id}234567`,
      raw_version: `1.2.${id}`,
      status,
      created_at: `2025-01-0${id}T00:00:00Z`,
      belongs_to__application: { __id: belongsTo },
      is_final: true,
      is_invalidated: false,
    });
    const releases = [release(1, 'success'), release(2, 'failed'), release(3, 'running')];
    const some = createFakeApi({
      application: [fleetRow(fleetFixture(), { owns__release: releases })],
      release: [...releases, release(4, 'success', 13)],
    });
    renderWithClient(some.client, <ReleasesCard fleet={fleetFixture()} />);
    // Newest first; another fleet's release is not listed.
    const rows = await screen.findAllByRole('row');
    expect(rows.slice(1).map((row) => row.textContent?.slice(0, 7))).toEqual([
      'abcdef3',
      'abcdef2',
      'abcdef1',
    ]);
    // Statuses read as on the releases pages, not the raw status words.
    expect(rows.slice(1).map((row) => row.querySelectorAll('td')[2]?.textContent)).toEqual([
      'Running',
      'Failed',
      'Succeeded',
    ]);
    expect(screen.getByText('1 successful')).toBeTruthy();
    expect(screen.getByText('1 running')).toBeTruthy();
    expect(screen.getByText('A build is in progress.')).toBeTruthy();
    // Each release links to its page, the running build too.
    expect(screen.getByRole('link', { name: 'abcdef3' }).getAttribute('href')).toBe(
      '/fleets/12/releases/3',
    );
    expect(screen.getByRole('link', { name: 'View' }).getAttribute('href')).toBe(
      '/fleets/12/releases/3',
    );
    expect(screen.getByRole('link', { name: 'All releases' }).getAttribute('href')).toBe(
      '/fleets/12/releases',
    );
  });
});
