// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { FleetSettings } from './FleetSettings.js';
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

const renderSettings = async (rows: FakeData) => {
  const api = createFakeApi({ ...baseRows, ...rows });
  renderWithClient(api.client, <FleetSettings fleet={fleetFixture()} />);
  // The role queries resolve once the progress bar is gone.
  await waitFor(() => expect(screen.queryByLabelText('Checking your permissions')).toBeNull());
  return api;
};

const buttonsOf = (element: HTMLElement): HTMLButtonElement[] =>
  within(element).queryAllByRole('button') as HTMLButtonElement[];

// Rendering the settings and typing into them take seconds on a busy machine (not the answers).
describe('FleetSettings permission gating', { timeout: 20_000 }, () => {
  it('gives an observer (through a team) no enabled action', async () => {
    await renderSettings({
      team_application_access: [teamAccess('observer')],
      organization_membership: [organizationMember('member')],
    });
    await screen.findByText(/does not allow changing its settings/);
    const danger = screen.getByRole('region', { name: 'Danger zone' });
    expect(buttonsOf(danger).length).toBeGreaterThan(0);
    expect(buttonsOf(danger).every((button) => button.disabled)).toBe(true);
    // Transfer is hidden without the permission; without a direct role there is nothing to leave.
    expect(within(danger).queryByRole('heading', { name: 'Transfer ownership' })).toBeNull();
    expect(within(danger).queryByRole('button', { name: 'Remove my access' })).toBeNull();
    // Nothing in the general settings is usable either.
    const general = screen.getByRole('region', { name: 'Settings' });
    expect(buttonsOf(general).every((button) => button.disabled)).toBe(true);
    expect((screen.getByRole('textbox', { name: 'Fleet name' }) as HTMLInputElement).disabled).toBe(
      true,
    );
    expect((screen.getByRole('switch') as HTMLInputElement).disabled).toBe(true);
    // Disabled controls explain why.
    expect(screen.getAllByLabelText(/do not have permission/).length).toBeGreaterThan(0);
  });

  it('lets an observer with a direct role leave, and nothing else', async () => {
    await renderSettings({ user_application_membership: [fleetMember('observer')] });
    const danger = screen.getByRole('region', { name: 'Danger zone' });
    const leave = within(danger).getByRole('button', {
      name: 'Remove my access',
    }) as HTMLButtonElement;
    expect(leave.disabled).toBe(false);
    const deleteButton = within(danger).getByRole('button', {
      name: 'Delete fleet',
    }) as HTMLButtonElement;
    expect(deleteButton.disabled).toBe(true);
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
