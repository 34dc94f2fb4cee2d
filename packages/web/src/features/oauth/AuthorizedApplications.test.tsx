// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeRow } from '../../test-support/fake-odata.js';
import { createFakeApi } from '../../test-support/fake-api.js';
import { renderConsoleAt } from '../../test-support/render-console.js';

afterEach(cleanup);

// The fake API's session user (createFakeApi's default id).
const userId = 7;

const application = (id: number, name: string, description: string | null = null): FakeRow => ({
  id,
  client_id: `client-${id}`,
  name,
  description,
  redirect_uri: `https://${name.toLowerCase()}.example/callback`,
});

// As /v7 serves them: the caller's own authorizations only.
const authorization = (id: number, app: FakeRow): FakeRow => ({
  id,
  created_at: '2026-11-02T10:00:00.000Z',
  belongs_to__user: { __id: userId },
  is_for__oauth_application: [app],
});

const renderTab = (authorizations: FakeRow[]) => {
  const api = createFakeApi({
    application: [],
    application_type: [],
    organization: [],
    api_key: [],
    oauth_application_authorization: authorizations,
  });
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null } }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: userId, username: 'ada', email: 'a@x.test' },
  }));
  renderConsoleAt(api.client, '/preferences/access-tokens');
  return api;
};

const firstLoad = { timeout: 10_000 };

const listedNames = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent);

describe('Preferences → Access tokens → Authorized applications', { timeout: 20_000 }, () => {
  it('lists the applications the user authorized, read with their application', async () => {
    const api = renderTab([
      authorization(1, application(3, 'Grafana', 'Dashboards')),
      authorization(2, application(4, 'Wiki')),
    ]);
    const table = await screen.findByRole('table', { name: 'Authorized applications' }, firstLoad);
    expect(listedNames(table)).toEqual(['GrafanaDashboards', 'Wiki']);
    expect(within(table).getByText('https://grafana.example')).toBeTruthy();
    const read = api.reads.find((url) => url.pathname === '/v7/oauth_application_authorization');
    expect(read?.searchParams.get('$filter')).toBe(`belongs_to__user eq ${userId}`);
  });

  it('says so when there are none', async () => {
    renderTab([]);
    expect(
      await screen.findByText('You have not authorized any applications', undefined, firstLoad),
    ).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Authorized applications' })).toBeNull();
  });

  it('shows a failed read with a retry', async () => {
    const api = renderTab([authorization(1, application(3, 'Grafana'))]);
    api.refuseNextRead('oauth_application_authorization', 'Database unavailable', {
      status: 503,
    });
    expect(await screen.findByText(/Database unavailable/, undefined, firstLoad)).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'Authorized applications' })).toBeTruthy();
  });

  it('revokes after confirmation, and the list follows', async () => {
    const api = renderTab([
      authorization(1, application(3, 'Grafana')),
      authorization(2, application(4, 'Wiki')),
    ]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Revoke Grafana' }, firstLoad));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke Grafana?' });
    expect(api.writes).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() =>
      expect(api.writes).toEqual([
        { method: 'DELETE', resource: 'oauth_application_authorization', id: 1, body: undefined },
      ]),
    );
    expect(await screen.findByText('Grafana is no longer authorized')).toBeTruthy();
    await waitFor(() =>
      expect(listedNames(screen.getByRole('table', { name: 'Authorized applications' }))).toEqual([
        'Wiki',
      ]),
    );
  });

  it('keeps the dialog open with the refusal when revoking fails; cancel writes nothing', async () => {
    const api = renderTab([authorization(1, application(3, 'Grafana'))]);
    api.refuseNext('DELETE', 'oauth_application_authorization', 1, 'Database unavailable', 503);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Revoke Grafana' }, firstLoad));
    let dialog = await screen.findByRole('dialog', { name: 'Revoke Grafana?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await within(dialog).findByText(/Database unavailable/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Revoke Grafana' }));
    dialog = await screen.findByRole('dialog', { name: 'Revoke Grafana?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.writes).toHaveLength(1);
    expect(listedNames(screen.getByRole('table', { name: 'Authorized applications' }))).toEqual([
      'Grafana',
    ]);
  });
});
