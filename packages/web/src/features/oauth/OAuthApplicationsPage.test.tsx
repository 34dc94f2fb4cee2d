// @vitest-environment jsdom
import type { OAuthApplication } from '@flotilla/shared/auth/oauth';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi, type FakeSession } from '../../test-support/fake-api.js';
import { renderConsoleAt } from '../../test-support/render-console.js';

afterEach(cleanup);

const grafana: OAuthApplication = {
  id: 1,
  clientId: 'c0ffee',
  name: 'Grafana',
  description: null,
  redirectUri: 'https://grafana.example/cb',
  createdAt: '2026-11-24T10:00:00.000Z',
  confidential: false,
};
const ci: OAuthApplication = {
  ...grafana,
  id: 2,
  clientId: 'c1c1c1',
  name: 'CI',
  confidential: true,
};

const renderAt = (session: FakeSession, initial: OAuthApplication[] = []) => {
  const api = createFakeApi({ application: [] }, session);
  let rows = [...initial];
  const posted: unknown[] = [];
  const deleted: string[] = [];
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null, helpLinks: {} } }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'root', email: null },
  }));
  api.on('GET', '/admin/v1/oauth-applications', () => ({ status: 200, body: rows }));
  api.on('POST', '/admin/v1/oauth-applications', (body) => {
    posted.push(body);
    const isConfidential =
      typeof body === 'object' && body !== null && 'confidential' in body && body.confidential;
    const created = isConfidential ? ci : grafana;
    rows = [...rows, created];
    return {
      status: 201,
      body: { ...created, clientSecret: isConfidential ? 'the-secret-shown-once' : null },
    };
  });
  api.on('DELETE', '/admin/v1/oauth-applications/1', (_body, url) => {
    deleted.push(url.pathname);
    rows = [];
    return { status: 204 };
  });
  const { router } = renderConsoleAt(api.client, '/admin/oauth');
  return { router, posted, deleted };
};

const admin: FakeSession = { permissions: ['admin.home'] };

describe('OAuthApplicationsPage', { timeout: 30_000 }, () => {
  it('registers an application, checking the redirect URI first, then deletes it', async () => {
    const { posted, deleted } = renderAt(admin);
    expect(
      await screen.findByText('No OAuth applications yet.', undefined, { timeout: 15_000 }),
    ).toBeTruthy();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Grafana');
    await user.type(
      screen.getByRole('textbox', { name: 'Redirect URI' }),
      'https://grafana.example/cb#x',
    );
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('The redirect URI must not have a fragment')).toBeTruthy();
    expect(posted).toEqual([]);
    await user.clear(screen.getByRole('textbox', { name: 'Redirect URI' }));
    await user.type(
      screen.getByRole('textbox', { name: 'Redirect URI' }),
      'https://grafana.example/cb',
    );
    await user.click(screen.getByRole('button', { name: 'Register' }));
    const table = await screen.findByRole('table', { name: 'OAuth applications' });
    expect(within(table).getByText('c0ffee')).toBeTruthy();
    expect(posted).toEqual([
      {
        name: 'Grafana',
        description: '',
        redirect_uri: 'https://grafana.example/cb',
        confidential: false,
      },
    ]);
    expect(within(table).getByText('Public')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Delete Grafana' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('No OAuth applications yet.')).toBeTruthy();
    expect(deleted).toEqual(['/admin/v1/oauth-applications/1']);
  });

  // A browser's maxLength cut a pasted text short without a word.
  it('says a pasted name or description is too long instead of cutting it', async () => {
    const { posted } = renderAt(admin);
    await screen.findByText('No OAuth applications yet.', undefined, { timeout: 15_000 });
    const user = userEvent.setup();
    const name = screen.getByRole('textbox', { name: 'Name' });
    await user.click(name);
    await user.paste('n'.repeat(130));
    expect((name as HTMLInputElement).value).toHaveLength(130);
    const description = screen.getByRole('textbox', { name: 'Description' });
    await user.click(description);
    await user.paste('d'.repeat(501));
    expect(
      screen.getByText('The description must be at most 500 characters (it has 501)'),
    ).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Redirect URI' }), 'https://g.example/');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByText('The name must be at most 100 characters (it has 130)')).toBeTruthy();
    expect(posted).toEqual([]);
  });

  it('registers a confidential client and shows its secret once', async () => {
    const { posted } = renderAt(admin);
    const user = userEvent.setup();
    await user.type(
      await screen.findByRole('textbox', { name: 'Name' }, { timeout: 15_000 }),
      'CI',
    );
    await user.type(screen.getByRole('textbox', { name: 'Redirect URI' }), 'https://ci.example/');
    await user.click(screen.getByRole('checkbox', { name: /Confidential client/ }));
    await user.click(screen.getByRole('button', { name: 'Register' }));
    const dialog = await screen.findByRole('dialog', { name: 'CI: client secret' });
    expect(within(dialog).getByDisplayValue('the-secret-shown-once')).toBeTruthy();
    expect(within(dialog).getByDisplayValue('c1c1c1')).toBeTruthy();
    expect(posted).toEqual([
      { name: 'CI', description: '', redirect_uri: 'https://ci.example/', confidential: true },
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const table = await screen.findByRole('table', { name: 'OAuth applications' });
    expect(within(table).getByText('Confidential')).toBeTruthy();
    expect(screen.queryByDisplayValue('the-secret-shown-once')).toBeNull();
    expect(screen.getByRole('checkbox', { name: /Confidential client/ })).toHaveProperty(
      'checked',
      false,
    );
  });

  it('sends a user without admin.home away', async () => {
    const { router } = renderAt({});
    await waitFor(() => expect(router.state.location.pathname).toBe('/fleets'), {
      timeout: 15_000,
    });
  });
});
