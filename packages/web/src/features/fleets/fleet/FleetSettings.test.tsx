// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { FleetSettings } from './FleetSettings.js';
import { FleetSettingsPage } from './FleetSettingsPage.js';
import { renderPage } from '../../../test-support/variables-pages.js';
import { needsRepositoryReason } from './RepositorySettings.js';
import { createFakeApi } from '../../../test-support/fake-api.js';
import type { FakeData } from '../../../test-support/fake-odata.js';
import {
  fleetMember,
  organizationMember,
  teamAccess,
  testUserId,
} from '../../../test-support/fixtures.js';
import { fleetRow, fleetFixture, renderWithClient } from '../../../test-support/fleet-helpers.js';

afterEach(cleanup);

const baseRows: FakeData = {
  application_type: [
    {
      id: 1,
      slug: 'microservices',
      name: 'Microservices',
      description: null,
      is_legacy: false,
      requires_payment: false,
      supports_multicontainer: true,
    },
    {
      id: 2,
      slug: 'essentials',
      name: 'Essentials',
      description: null,
      is_legacy: false,
      requires_payment: false,
      supports_multicontainer: false,
    },
  ],
  device_type: [
    {
      id: 30,
      slug: 'raspberrypi4-64',
      name: 'Raspberry Pi 4 (64bit)',
      is_of__cpu_architecture: { __id: 4 },
    },
    { id: 31, slug: 'genericx86-64', name: 'Generic x86_64', is_of__cpu_architecture: { __id: 2 } },
  ],
  application: [fleetRow(fleetFixture())],
  // The fleet's own organization, administered by the user: no other one to transfer to.
  organization: [
    {
      id: 3,
      name: 'Acme',
      organization_membership: [
        {
          id: 1,
          user: { __id: testUserId },
          organization_membership_role: [{ name: 'administrator' }],
        },
      ],
      application: [{ id: 12, app_name: 'garden-sensors' }],
    },
  ],
};

// The settings page (with its guard) for a user holding `rows`, at /fleets/12/settings.
const openSettingsPage = (rows: FakeData) =>
  renderPage(
    createFakeApi({ ...baseRows, ...rows }),
    '/fleets/12/settings',
    '/fleets/12/settings',
    <FleetSettingsPage />,
  );

const renderSettings = async (rows: FakeData) => {
  const api = createFakeApi({ ...baseRows, ...rows });
  renderWithClient(api.client, <FleetSettings fleet={fleetFixture()} />);
  // The role queries resolve once the progress bar is gone.
  await waitFor(() => expect(screen.queryByLabelText('Checking your permissions')).toBeNull());
  return api;
};

// Rendering the settings and typing into them take seconds on a busy machine (not the answers).
describe('FleetSettings permission gating', { timeout: 20_000 }, () => {
  it('sends a user who may not change the fleet home', async () => {
    const router = openSettingsPage({
      team_application_access: [teamAccess('observer')],
      organization_membership: [organizationMember('member')],
    });
    expect(await screen.findByText('Home')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows a developer the settings page', async () => {
    const router = openSettingsPage({ user_application_membership: [fleetMember('developer')] });
    expect(await screen.findByRole('region', { name: 'Settings' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/fleets/12/settings');
  });

  it('sends an observer with a direct role home too (they leave from the members page)', async () => {
    const router = openSettingsPage({ user_application_membership: [fleetMember('observer')] });
    expect(await screen.findByText('Home')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });

  it('offers a developer with a direct role to leave in the danger zone', async () => {
    await renderSettings({ user_application_membership: [fleetMember('developer')] });
    const danger = screen.getByRole('region', { name: 'Danger zone' });
    const leave = within(danger).getByRole('button', { name: 'Remove my access' });
    expect((leave as HTMLButtonElement).disabled).toBe(false);
  });

  it('lets a developer rename but not delete; public needs a repository URL', async () => {
    await renderSettings({ user_application_membership: [fleetMember('developer')] });
    const name = screen.getByRole('textbox', { name: 'Fleet name' }) as HTMLInputElement;
    await screen.findByText(/Support access is off/);
    const user = userEvent.setup();
    const rename = screen.getByRole('button', { name: 'Rename' }) as HTMLButtonElement;
    await user.clear(name);
    expect(screen.getByText('name required')).toBeTruthy();
    expect(rename.disabled).toBe(true);
    // One input event: typing key by key re-renders the whole page per character, and typing
    // speed is not what this test is about.
    await user.paste('garden-sensors-2');
    expect(name.value).toBe('garden-sensors-2');
    expect(rename.disabled).toBe(false);
    const danger = screen.getByRole('region', { name: 'Danger zone' });
    expect(
      (within(danger).getByRole('button', { name: 'Delete fleet' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(screen.getByLabelText(needsRepositoryReason)).toBeTruthy();
    expect((screen.getByRole('switch') as HTMLInputElement).disabled).toBe(true);
  });

  it('gives an organization administrator delete and transfer', async () => {
    await renderSettings({ organization_membership: [organizationMember('administrator')] });
    const danger = screen.getByRole('region', { name: 'Danger zone' });
    const deleteButton = within(danger).getByRole('button', {
      name: 'Delete fleet',
    }) as HTMLButtonElement;
    expect(deleteButton.disabled).toBe(false);
    expect(within(danger).getByRole('heading', { name: 'Transfer ownership' })).toBeTruthy();
    // No other organization to receive the fleet.
    expect(
      await within(danger).findByText('no organizations with matching resource name'),
    ).toBeTruthy();
  });
});
