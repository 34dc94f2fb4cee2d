// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { acmeId, organizationWorld } from '../../test-support/organization-fixtures.js';
import { docPages } from '../../api/doc-pages.js';
import { SupportPanel } from './SupportPanel.js';

afterEach(cleanup);

// The drawer's support part for the signed-in user (ada) in Acme with `role`; the server says
// whether Acme gets private support.
const render = (options: {
  role: 'administrator' | 'member';
  canAccess: boolean;
  billing?: boolean;
}) => {
  const api = createFakeApi(organizationWorld(options.role));
  api.on('GET', '/config', () => ({
    status: 200,
    body: { deployment: null, helpLinks: {}, billingEnabled: options.billing === true },
  }));
  api.on('GET', `/billing/v1/account/${acmeId}/can-access-support`, () => ({
    status: 200,
    body: options.canAccess,
  }));
  api.on('GET', '/support/v1/desk', () => ({ status: 200, body: { kind: 'built-in' } }));
  for (const [page, { title }] of Object.entries(docPages)) {
    api.on('GET', `/docs/v1/${page}`, () => ({
      status: 200,
      text: `# ${title}\n\n${page === 'devices' ? 'Blink a device to find it.' : 'Other words.'}`,
    }));
  }
  renderWithClient(api.client, <SupportPanel onNavigate={() => undefined} />);
};

describe('SupportPanel', () => {
  it('offers private support to a member whose organization has it', async () => {
    render({ role: 'administrator', canAccess: true });
    expect(await screen.findByRole('button', { name: 'Create a ticket' })).toBeTruthy();
    expect(
      (await screen.findByRole('link', { name: 'Support tickets' })).getAttribute('href'),
    ).toBe(`/orgs/${acmeId}/support`);
    // Billing is off here: no Upgrade link.
    expect(screen.queryByRole('link', { name: 'Upgrade' })).toBeNull();
  });

  it('offers an organization administrator Upgrade to the plans where billing is on', async () => {
    render({ role: 'administrator', canAccess: false, billing: true });
    expect((await screen.findByRole('link', { name: 'Upgrade' })).getAttribute('href')).toBe(
      `/orgs/${acmeId}/billing#billing-plans`,
    );
  });

  it('offers a member no Upgrade button', async () => {
    render({ role: 'member', canAccess: false, billing: true });
    expect(await screen.findByText('Private support is available on paid plans.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Upgrade' })).toBeNull();
  });

  it('says private support needs a paid plan when the organization has none', async () => {
    render({ role: 'member', canAccess: false });
    expect(await screen.findByText('Private support is available on paid plans.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create a ticket' })).toBeNull();
  });

  it('searches the console’s documentation pages', async () => {
    const user = userEvent.setup();
    render({ role: 'member', canAccess: true });
    await user.type(screen.getByLabelText('Search the documentation'), 'blink');
    const hit = await screen.findByRole('link', { name: 'Devices' });
    expect(hit.getAttribute('href')).toBe('/docs/devices');
    expect(screen.getAllByRole('link').map((link) => link.textContent)).not.toContain(
      'Architecture',
    );
  });
});
