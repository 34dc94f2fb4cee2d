// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Outlet, Route, Routes } from 'react-router';
import { ToastProvider } from '../../ui/toasts.js';
import { createFakeApi } from '../../test-support/fake-api.js';
import type { FakeData, FakeRow } from '../../test-support/fake-odata.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { fleetFixture, renderWithClient } from '../../test-support/fleet-helpers.js';
import { FleetDevicesPage } from './FleetDevicesPage.js';
import { deviceRow } from '../../test-support/device-fixtures.js';

// The field actions of the Action menu in batch from the devices table, on the strict fake API:
// what each form offers and refuses, and the writes it sends.

afterEach(cleanup);

const devices = [
  deviceRow(),
  deviceRow({
    id: 102,
    uuid: 'b'.repeat(32),
    device_name: 'calm-heron',
    os_variant: 'dev',
    device_tag: [{ id: 2, tag_key: 'site', value: 'south' }],
  }),
];

const release = (id: number, version: string, invalidated = false): FakeRow => ({
  id,
  commit: `${id}`.repeat(8),
  raw_version: version,
  created_at: `2024-05-0${id}T10:00:00.000Z`,
  is_invalidated: invalidated,
  invalidation_reason: invalidated ? 'Bricks the sensors' : null,
  status: 'success',
  is_final: true,
  belongs_to__application: { __id: 12 },
});

const fleet = (id: number, name: string, arch = 'aarch64'): FakeRow => ({
  id,
  app_name: name,
  slug: `acme/${name}`,
  organization: { __id: 3 },
  is_of__class: 'fleet',
  is_directly_accessible_by__user: [{ id: 7 }],
  is_for__device_type: [{ slug: `${arch}-board`, is_of__cpu_architecture: [{ slug: arch }] }],
});

const renderTable = (data: FakeData, role = 'operator', url = '/fleets/12/devices') => {
  const api = createFakeApi({
    device: devices,
    device_config_variable: [],
    team_application_access: [],
    organization_membership: [],
    user_application_membership: [fleetMember(role)],
    ...data,
  });
  renderWithClient(
    api.client,
    <ToastProvider>
      <Routes>
        <Route element={<Outlet context={{ fleet: fleetFixture() }} />}>
          <Route path="/fleets/12/devices" element={<FleetDevicesPage />} />
        </Route>
        <Route path="/fleets/:id" element={<p>Landed on the target fleet</p>} />
      </Routes>
    </ToastProvider>,
    url,
  );
  return api;
};

const selectBoth = async (): Promise<void> => {
  await userEvent.click(await screen.findByRole('checkbox', { name: 'Select brave-otter' }));
  await userEvent.click(screen.getByRole('checkbox', { name: 'Select calm-heron' }));
};

const openAction = async (name: string): Promise<HTMLElement> => {
  await userEvent.click(screen.getByRole('button', { name: 'Actions' }));
  await userEvent.click(await screen.findByRole('menuitem', { name }));
  return await screen.findByRole('dialog');
};

const deviceWrites = (api: ReturnType<typeof renderTable>) =>
  api.writes.filter((write) => write.resource === 'device').map(({ id, body }) => ({ id, body }));

describe('field actions in batch', () => {
  it('pins the selection to a valid release; invalidated releases are offered disabled', async () => {
    const api = renderTable({ release: [release(1, '1.0.0'), release(2, '1.1.0', true)] });
    await selectBoth();
    const dialog = await openAction('Pin to release');
    const apply = within(dialog).getByRole('button', { name: 'Apply' });
    expect(apply.hasAttribute('disabled')).toBe(true);
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Release' }));
    const withdrawn = await screen.findByRole('option', { name: /1\.1\.0/ });
    expect(withdrawn.getAttribute('aria-disabled')).toBe('true');
    expect(withdrawn.textContent).toContain('Invalidated');
    await userEvent.click(screen.getByRole('option', { name: /1\.0\.0/ }));
    // The choice shows in the field (and is no search of its own).
    expect(within(dialog).getByRole('combobox', { name: 'Release' })).toHaveProperty(
      'value',
      '1.0.0',
    );
    await userEvent.click(apply);
    await waitFor(() => expect(deviceWrites(api)).toHaveLength(2));
    expect(deviceWrites(api)).toEqual([
      { id: 101, body: { is_pinned_on__release: 1 } },
      { id: 102, body: { is_pinned_on__release: 1 } },
    ]);
    expect(await screen.findByText('Changed the release of 2 devices')).toBeTruthy();
  });

  it('moves to a fleet the user may move to, says why the others are disabled, and lands there', async () => {
    const api = renderTable({
      application: [
        fleet(12, 'garden-sensors'),
        fleet(13, 'orchard'),
        fleet(14, 'observed'),
        fleet(15, 'pc-fleet', 'amd64'),
      ],
      user_application_membership: [
        fleetMember('operator'),
        fleetMember('developer', 13, 2),
        fleetMember('observer', 14, 3),
        fleetMember('developer', 15, 4),
      ],
      device_type: [{ slug: 'raspberrypi4-64', is_of__cpu_architecture: [{ slug: 'aarch64' }] }],
    });
    await selectBoth();
    const dialog = await openAction('Move device');
    expect(within(dialog).getByText('All fields must be filled out to proceed')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Fleet' }));
    const reasons = {
      'garden-sensors': 'The devices are already in this fleet',
      observed: 'Insufficient permission for moving devices to this fleet',
      'pc-fleet': 'Could not find compatible cpu architecture',
    };
    for (const [name, reason] of Object.entries(reasons)) {
      const option = await screen.findByRole('option', { name: new RegExp(name) });
      expect(option.getAttribute('aria-disabled'), name).toBe('true');
      expect(option.textContent).toContain(reason);
    }
    await userEvent.click(screen.getByRole('option', { name: /orchard/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect(await screen.findByText('Landed on the target fleet')).toBeTruthy();
    expect(deviceWrites(api)).toEqual([
      { id: 101, body: { belongs_to__application: 13 } },
      { id: 102, body: { belongs_to__application: 13 } },
    ]);
  });

  it('disables Move device when no fleet the user may move to runs their architecture', async () => {
    renderTable({
      application: [fleet(12, 'garden-sensors'), fleet(15, 'pc-fleet', 'amd64')],
      user_application_membership: [fleetMember('operator'), fleetMember('developer', 15, 4)],
      device_type: [{ slug: 'raspberrypi4-64', is_of__cpu_architecture: [{ slug: 'aarch64' }] }],
    });
    await selectBoth();
    await userEvent.click(screen.getByRole('button', { name: 'Actions' }));
    await waitFor(() => {
      const item = screen.getByRole('menuitem', { name: /^Move device/ });
      expect(item.getAttribute('aria-disabled')).toBe('true');
      expect(item.textContent).toContain('No applications with compatible arch');
    });
  });

  it('enables local mode only on the eligible devices and says why the others are left out', async () => {
    const api = renderTable({});
    await selectBoth();
    const dialog = await openAction('Local mode');
    expect(within(dialog).getByText(/1 selected device will be skipped/).textContent).toContain(
      'Local mode is only available on development OS variants (1)',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(api.writes).toHaveLength(1));
    expect(api.writes[0]).toMatchObject({
      method: 'POST',
      resource: 'device_config_variable',
      body: { device: 102, name: 'RESIN_SUPERVISOR_LOCAL_MODE', value: '1' },
    });
  });

  it('disables local mode with the reason when no selected device may enter it', async () => {
    renderTable({});
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select brave-otter' }));
    await userEvent.click(screen.getByRole('button', { name: 'Actions' }));
    await waitFor(() => {
      const item = screen.getByRole('menuitem', { name: /^Local mode/ });
      expect(item.getAttribute('aria-disabled')).toBe('true');
      expect(item.textContent).toContain('Local mode is only available on development OS variants');
    });
  });

  it('deactivates after the count is typed, and warns when some devices fail', async () => {
    const api = renderTable({});
    api.refuseNext('PATCH', 'device', 102, 'Device already inactive');
    await selectBoth();
    const dialog = await openAction('Deactivate device');
    const confirm = within(dialog).getByRole('button', { name: 'Deactivate' });
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await userEvent.type(within(dialog).getByTestId('confirm-text'), '2');
    await userEvent.click(confirm);
    expect(
      await screen.findByText(
        'Operation failed for 1 of the selected items with Request error: Device already inactive',
      ),
    ).toBeTruthy();
    expect(deviceWrites(api)).toContainEqual({ id: 101, body: { is_active: false } });
  });

  it('grants support access until a date, five days ahead by default', async () => {
    const api = renderTable({});
    await selectBoth();
    const dialog = await openAction('Support access');
    const until = within(dialog).getByLabelText('Grant until');
    expect(until).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(deviceWrites(api)).toHaveLength(2));
    const [first] = deviceWrites(api);
    const body = first?.body;
    const date =
      typeof body === 'object' && body !== null && 'is_accessible_by_support_until__date' in body
        ? String(body.is_accessible_by_support_until__date)
        : '';
    const days = (new Date(date).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(4.9);
    expect(days).toBeLessThanOrEqual(5);
  });

  it('turns the public device URL on', async () => {
    const api = renderTable({});
    await selectBoth();
    const dialog = await openAction('Public device URL');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(deviceWrites(api)).toHaveLength(2));
    expect(deviceWrites(api)[0]).toEqual({ id: 101, body: { is_web_accessible: true } });
  });

  it('leaves move and deactivate to operators: a safe-operator sees why, and may pin', async () => {
    renderTable({}, 'safe-operator');
    await selectBoth();
    // The open menu follows the role query when it settles.
    await userEvent.click(await screen.findByRole('button', { name: 'Actions' }));
    await waitFor(() => {
      for (const name of ['Move device', 'Deactivate device', 'Local mode']) {
        const item = screen.getByRole('menuitem', { name: new RegExp(name) });
        expect(item.getAttribute('aria-disabled'), name).toBe('true');
        expect(item.textContent).toMatch(/permission/);
      }
      const pin = screen.getByRole('menuitem', { name: /Pin to release/ });
      expect(pin.getAttribute('aria-disabled')).toBeNull();
    });
  });

  it('adds a tag to the selection and removes one from every device', async () => {
    const api = renderTable({});
    // A created tag is read back through its device by the table's tag-column choices.
    api.shapeCreated('device_tag', ({ device, ...fields }) => ({
      ...fields,
      device: [{ id: Number(device), belongs_to__application: { __id: 12 } }],
    }));
    await selectBoth();
    await userEvent.click(screen.getByRole('button', { name: 'Tags' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage tags (2 devices)' });
    const site = within(dialog).getByLabelText('Value of site');
    expect(site.getAttribute('placeholder')).toBe('Several values (kept)');
    await userEvent.type(within(dialog).getByLabelText('New tag key'), 'site');
    expect(within(dialog).getByText('This tag key already exists')).toBeTruthy();
    await userEvent.clear(within(dialog).getByLabelText('New tag key'));
    await userEvent.type(within(dialog).getByLabelText('New tag key'), 'owner');
    await userEvent.type(within(dialog).getByLabelText('New tag value'), 'ops');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove site' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Updated the tags of 2 devices')).toBeTruthy();
    expect(
      api.writes.map(({ method, resource, id, body }) => ({ method, resource, id, body })),
    ).toEqual(
      expect.arrayContaining([
        { method: 'DELETE', resource: 'device_tag', id: 1, body: undefined },
        { method: 'DELETE', resource: 'device_tag', id: 2, body: undefined },
        {
          method: 'POST',
          resource: 'device_tag',
          id: undefined,
          body: { device: 101, tag_key: 'owner', value: 'ops' },
        },
        {
          method: 'POST',
          resource: 'device_tag',
          id: undefined,
          body: { device: 102, tag_key: 'owner', value: 'ops' },
        },
      ]),
    );
    expect(api.writes).toHaveLength(4);
  });
});

describe('tags in the devices table', () => {
  it('filters by tag on the server and shows chosen tag keys as columns', async () => {
    const api = renderTable(
      {
        device_tag: [
          { id: 1, tag_key: 'site', device: [{ id: 101, belongs_to__application: { __id: 12 } }] },
        ],
      },
      'operator',
      '/fleets/12/devices?tag=site%3Dsouth&tagcols=site',
    );
    const table = await screen.findByRole('table', { name: 'Devices' });
    expect(within(table).getByRole('columnheader', { name: 'Tag: site' })).toBeTruthy();
    expect(within(table).queryByRole('link', { name: 'brave-otter' })).toBeNull();
    expect(within(table).getByRole('link', { name: 'calm-heron' })).toBeTruthy();
    expect(within(table).getAllByText('south').length).toBeGreaterThan(0);
    const list = api.reads.find(
      (url) => url.pathname === '/v7/device' && url.searchParams.has('$top'),
    );
    expect(list?.searchParams.get('$filter')).toContain(
      "device_tag/any(dt:dt/tag_key eq 'site' and dt/value eq 'south')",
    );
    expect(screen.getByLabelText('Tag')).toHaveProperty('value', 'site=south');
  });
});
