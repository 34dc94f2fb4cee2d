// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { testUserId } from '../../test-support/fixtures.js';
import { renderConsoleAt } from '../../test-support/render-console.js';

afterEach(cleanup);

const firstLoad = { timeout: 15_000 };

const provider = (id: number, identifier: string, organizations: string[]) => ({
  id,
  sso_identifier: identifier,
  entry_point: 'https://idp.example.com/sso',
  issuer: `https://${identifier}.example.com/metadata`,
  certificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
  identity_provider_membership: organizations.map((name, index) => ({
    id: id * 10 + index,
    organization: [{ id: id * 10 + index, name }],
    grants_access_to__team: [],
  })),
});

const renderAdminPage = (permissions: string[]) => {
  const api = createFakeApi(
    {
      identity_provider: [
        provider(5, 'acme-sso', ['Acme', 'Acme Labs']),
        provider(6, 'beta', ['Beta']),
      ],
      application: [],
    },
    { permissions },
  );
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null, helpLinks: {} } }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: {
      id: 70,
      actorType: 'user',
      actorTypeId: testUserId,
      username: 'ada',
      email: 'a@x.test',
    },
  }));
  return renderConsoleAt(api.client, '/admin/identity-providers');
};

describe('Admin → Identity providers', { timeout: 60_000 }, () => {
  it('lists every provider with its organizations, each opening its page', async () => {
    renderAdminPage(['admin.home']);
    const table = await screen.findByRole('table', { name: 'Identity providers' }, firstLoad);
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]?.textContent).toContain('Acme, Acme Labs');
    expect(within(table).getByRole('link', { name: 'acme-sso' }).getAttribute('href')).toBe(
      '/identity-provider/5',
    );
    expect(within(table).getByRole('link', { name: 'beta' })).toBeTruthy();
  });

  it('sends anyone else home without listing them', async () => {
    const { router } = renderAdminPage([]);
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/'), firstLoad);
    expect(screen.queryByRole('table', { name: 'Identity providers' })).toBeNull();
  });
});
