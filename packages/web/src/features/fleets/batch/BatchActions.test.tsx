// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../../ui/toasts.js';
import type { FleetListItem } from '../../../fleet/api-fleet-list.js';
import { createFakeApi } from '../../../test-support/fake-api.js';
import type { FakeData } from '../../../test-support/fake-odata.js';
import { fleetMember, organizationMember } from '../../../test-support/fixtures.js';
import { renderWithClient } from '../../../test-support/fleet-helpers.js';
import { BatchActions } from './BatchActions.js';
import type { Selection } from './useSelection.js';

afterEach(cleanup);

const architecture = (slug: string) => [{ id: slug === 'amd64' ? 2 : 4, slug }];

// A row of the batch query (application with organization, device type and type flags).
const batchRow = (id: number, name: string, arch = 'aarch64') => ({
  id,
  app_name: name,
  is_of__class: 'fleet',
  organization: [{ id: 3 }],
  is_for__device_type: [
    { id: 30, slug: 'raspberrypi4-64', name: 'Pi 4', is_of__cpu_architecture: architecture(arch) },
  ],
  application_type: [{ is_legacy: false }],
});

const listItem = (id: number, name: string): FleetListItem => ({
  id,
  app_name: name,
  slug: `acme/${name}`,
  is_of__class: 'fleet',
  created_at: '2024-05-01T10:00:00.000Z',
  should_track_latest_release: true,
  organization: [{ id: 3, name: 'Acme', handle: 'acme' }],
  is_for__device_type: [{ slug: 'raspberrypi4-64', name: 'Pi 4' }],
  should_be_running__release: [],
  owns__device: 2,
});

const selectionOf = (ids: number[]): Selection => ({
  active: true,
  selected: ids,
  isSelected: (id) => ids.includes(id),
  toggle: vi.fn(),
  selectAll: vi.fn(),
  clear: vi.fn(),
  start: vi.fn(),
  stop: vi.fn(),
});

const membership = (fleetId: number, role: string) => fleetMember(role, fleetId, fleetId * 10);

// The user's role in organization 3, which owns every fleet here.
const organizationRole = (role: string) => [organizationMember(role, 3, [1, 2, 3, 4])];

const renderActions = (rows: FakeData, selected: number[]) => {
  const api = createFakeApi(rows);
  const selection = selectionOf(selected);
  renderWithClient(
    api.client,
    <ToastProvider>
      <BatchActions
        className="fleet"
        fleets={[listItem(1, 'alpha-one'), listItem(2, 'beta-two'), listItem(3, 'gamma-3')]}
        selection={selection}
      />
    </ToastProvider>,
  );
  return { api, selection };
};

const button = (name: RegExp | string) => screen.getByRole('button', { name }) as HTMLButtonElement;

// The permission rows have arrived once the gates stop saying so.
const settled = () =>
  waitFor(() => expect(screen.queryAllByLabelText('Checking your permissions…')).toEqual([]));

describe('BatchActions toolbar', () => {
  it('enables actions by the permission on every selected fleet', async () => {
    renderActions(
      {
        application: [batchRow(1, 'alpha-one'), batchRow(2, 'beta-two')],
        user_application_membership: [membership(1, 'developer'), membership(2, 'observer')],
        organization_membership: organizationRole('member'),
      },
      [1, 2],
    );
    expect(screen.getByRole('status')).toHaveProperty('textContent', '2 selected');
    await settled();
    expect(button('Rename').disabled).toBe(true);
    expect(screen.getByLabelText('Select exactly one to rename')).toBeTruthy();
    expect(button(/Change default device type/).disabled).toBe(true);
    expect(button('Delete').disabled).toBe(true);
    // The observer's fleet is the one named for the device type; neither role may delete.
    expect(screen.getByLabelText(/^Not allowed for beta-two: Observers/)).toBeTruthy();
    expect(screen.getByLabelText(/^Not allowed for alpha-one and beta-two: /)).toBeTruthy();
  });

  it('lets a developer rename one fleet and change its device type, not delete it', async () => {
    renderActions(
      {
        application: [batchRow(1, 'alpha-one')],
        user_application_membership: [membership(1, 'developer')],
      },
      [1],
    );
    await settled();
    expect(button('Rename').disabled).toBe(false);
    expect(button(/Change default device type/).disabled).toBe(false);
    expect(button('Delete').disabled).toBe(true);
    expect(
      screen.getByLabelText(/^Not allowed for alpha-one: .*developers do not have/),
    ).toBeTruthy();
  });

  it('deletes the selection of an organization administrator after typing the count', async () => {
    const user = userEvent.setup();
    const { api, selection } = renderActions(
      {
        application: [batchRow(1, 'alpha-one'), batchRow(2, 'beta-two')],
        organization_membership: organizationRole('administrator'),
      },
      [1, 2],
    );
    await settled();
    await user.click(button('Delete'));
    const dialog = screen.getByRole('dialog', { name: 'Delete 2 fleets?' });
    expect(within(dialog).getByText('alpha-one')).toBeTruthy();
    expect(
      within(dialog).getByText('This also deletes their 4 devices and cannot be undone.'),
    ).toBeTruthy();
    const confirm = within(dialog).getByRole('button', {
      name: 'Delete fleets',
    }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    await user.type(within(dialog).getByLabelText('Type "2" to confirm'), '2');
    await user.click(confirm);
    await screen.findByText('Deleted 2 fleets');
    expect(api.writes).toEqual([
      { method: 'DELETE', resource: 'application', id: 1, body: undefined },
      { method: 'DELETE', resource: 'application', id: 2, body: undefined },
    ]);
    expect(selection.clear).toHaveBeenCalled();
  });

  it('shows why fleets of different architectures cannot change device type together', async () => {
    const user = userEvent.setup();
    renderActions(
      {
        application: [batchRow(1, 'alpha-one'), batchRow(3, 'gamma-3', 'amd64')],
        organization_membership: organizationRole('administrator'),
      },
      [1, 3],
    );
    await settled();
    await user.click(button(/Change default device type/));
    const dialog = screen.getByRole('dialog', { name: 'Change default device type' });
    expect(within(dialog).getByText(/different CPU architectures/)).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Change' })).toBeNull();
  });

  it('warns with the count and reason when some deletions fail', async () => {
    const user = userEvent.setup();
    const { api } = renderActions(
      {
        application: [batchRow(1, 'alpha-one'), batchRow(2, 'beta-two')],
        organization_membership: organizationRole('administrator'),
      },
      [1, 2],
    );
    api.refuseNext('DELETE', 'application', 2, 'Fleet is locked');
    await settled();
    await user.click(button('Delete'));
    await user.type(screen.getByLabelText('Type "2" to confirm'), '2');
    await user.click(screen.getByRole('button', { name: 'Delete fleets' }));
    await screen.findByText(
      'Operation failed for 1 of the 2 selected fleets (beta-two) with Request error: Fleet is locked',
    );
  });

  it('renames one fleet with the name rules and the case-insensitive clash check', async () => {
    const user = userEvent.setup();
    const { api } = renderActions(
      {
        // The organization's names come from the same resource: one other fleet is taken.
        application: [batchRow(1, 'alpha-one'), batchRow(4, 'taken-name')],
        organization_membership: organizationRole('administrator'),
      },
      [1],
    );
    await settled();
    await user.click(button('Rename'));
    const dialog = screen.getByRole('dialog', { name: 'Rename alpha-one' });
    const field = within(dialog).getByLabelText('Fleet name');
    const submit = within(dialog).getByRole('button', { name: 'Rename' }) as HTMLButtonElement;
    await user.clear(field);
    expect(within(dialog).getByText('name required')).toBeTruthy();
    expect(submit.disabled).toBe(true);
    await user.type(field, 'TAKEN-Name');
    expect(within(dialog).getByText(/already used by another fleet/)).toBeTruthy();
    expect(submit.disabled).toBe(true);
    await user.clear(field);
    await user.type(field, 'a!');
    expect(within(dialog).getByText('at least 4 characters')).toBeTruthy();
    await user.clear(field);
    await user.type(field, 'new-name');
    await waitFor(() => expect(submit.disabled).toBe(false));
    await user.click(submit);
    await screen.findByText('Renamed alpha-one to new-name');
    expect(api.writes).toEqual([
      { method: 'PATCH', resource: 'application', id: 1, body: { app_name: 'new-name' } },
    ]);
  });
});
