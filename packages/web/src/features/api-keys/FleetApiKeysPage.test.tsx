// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { dialogsClosed, fill, renderPage } from '../../test-support/variables-pages.js';
import { FleetApiKeysPage } from './FleetApiKeysPage.js';

afterEach(cleanup);

const key = (id: number, name: string, actor: number, expiry: string | null) => ({
  id,
  name,
  description: `${name} description`,
  created_at: '2025-03-01T10:00:00.000Z',
  expiry_date: expiry,
  is_of__actor: { __id: actor },
});

const setup = (role = 'safe-operator') => {
  const api = createFakeApi({
    user_application_membership: [fleetMember(role)],
    application: [{ id: 12, actor: { __id: 77 } }],
    api_key: [
      key(1, 'factory', 77, '2099-01-01T00:00:00.000Z'),
      key(2, 'old', 77, '2020-01-01T00:00:00.000Z'),
      key(3, 'other fleet', 78, null),
    ],
  });
  const created: unknown[] = [];
  api.on('POST', '/api-key/application/12/provisioning', (body) => {
    created.push(body);
    return { status: 200, body: 'prov_secret_key_1234567890' };
  });
  const router = renderPage(
    api,
    '/fleets/12/api-keys',
    '/fleets/12/api-keys',
    <FleetApiKeysPage />,
  );
  return { api, router, created, user: userEvent.setup() };
};

const table = () => screen.findByRole('table', { name: 'Provisioning keys' });

describe('FleetApiKeysPage', { timeout: 60_000 }, () => {
  it("lists the fleet's provisioning keys with description, creation and expiry", async () => {
    setup();
    const rows = within(await table()).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('Name'),
      expect.stringContaining('factory description'),
      expect.stringMatching(/old description.*Expired/),
    ]);
    expect(screen.queryByText('other fleet')).toBeNull();
  });

  it('creates a key, shows it once with a copy button, and lists it', async () => {
    const { api, created, user } = setup();
    await table();
    await user.click(screen.getByRole('button', { name: 'Create provisioning key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create provisioning key' });
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('Name is required')).toBeTruthy();
    await fill(user, within(dialog).getByLabelText('Name'), 'gateway');
    await user.click(within(dialog).getByLabelText('Expires after'));
    await user.click(await screen.findByRole('option', { name: 'Never' }));
    expect(within(dialog).getByText(/never expires works until it is revoked/)).toBeTruthy();
    const listReads = () => api.reads.filter((url) => url.pathname === '/v7/api_key').length;
    const before = listReads();
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    const shown = await screen.findByRole('dialog', { name: 'Provisioning key created' });
    expect(within(shown).getByText('prov_secret_key_1234567890')).toBeTruthy();
    expect(within(shown).getByRole('button', { name: 'Copy provisioning key' })).toBeTruthy();
    expect(created).toEqual([{ name: 'gateway', description: null, expiryDate: null }]);
    // The list is read again.
    await waitFor(() => expect(listReads()).toBeGreaterThan(before));
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await dialogsClosed();
    expect(screen.queryByText('prov_secret_key_1234567890')).toBeNull();
  });

  it('renames and revokes a key', async () => {
    const { api, user } = setup();
    await table();
    await user.click(screen.getByRole('button', { name: 'Rename factory' }));
    const rename = await screen.findByRole('dialog', { name: 'Rename API key' });
    await fill(user, within(rename).getByLabelText('Name'), 'line 2');
    await user.click(within(rename).getByRole('button', { name: 'Save' }));
    await dialogsClosed();
    expect(await within(await table()).findByText('line 2')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Revoke line 2' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke line 2?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('line 2 was revoked')).toBeTruthy();
    expect(api.writes).toEqual([
      {
        method: 'PATCH',
        resource: 'api_key',
        id: 1,
        body: { name: 'line 2', description: 'factory description' },
      },
      { method: 'DELETE', resource: 'api_key', id: 1, body: undefined },
    ]);
  });

  it('sends a user without resin.api_key.read home', async () => {
    const { api, router } = setup('observer');
    expect(await screen.findByText('Home')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    expect(api.reads.some((url) => url.pathname === '/v7/api_key')).toBe(false);
  });
});
