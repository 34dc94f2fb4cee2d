// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DevicesCard } from './DevicesCard.js';
import { ReleasesCard } from './ReleasesCard.js';
import { SummaryCard } from './SummaryCard.js';
import { fakeClient, fleetFixture, renderWithClient } from './test-helpers.js';

afterEach(cleanup);

describe('summary cards', () => {
  it('shows the block image reference and the release selector', () => {
    const { client } = fakeClient({});
    renderWithClient(
      client,
      <SummaryCard
        application={fleetFixture({ is_of__class: 'block' })}
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
    const { client } = fakeClient({}, { device: 0 });
    renderWithClient(client, <DevicesCard application={fleetFixture({ owns__device: 0 })} />);
    expect(screen.getByLabelText('0 devices in total')).toBeTruthy();
    expect(await screen.findByText('No devices yet')).toBeTruthy();
  });

  it('has an empty state and lists the newest releases', async () => {
    const empty = fakeClient({ release: [] });
    renderWithClient(empty.client, <ReleasesCard application={fleetFixture()} />);
    expect(await screen.findByText('No releases yet')).toBeTruthy();
    cleanup();
    const release = {
      id: 5,
      commit: 'abcdef1234567',
      raw_version: '1.2.3',
      status: 'running',
      created_at: '2025-01-01T00:00:00Z',
    };
    const some = fakeClient({ release: [release] });
    renderWithClient(some.client, <ReleasesCard application={fleetFixture()} />);
    expect(await screen.findByText('abcdef1')).toBeTruthy();
    expect(screen.getByText('1.2.3')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View build' }).getAttribute('href')).toBe(
      '/fleets/12/releases/5',
    );
  });
});
