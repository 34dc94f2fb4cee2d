// @vitest-environment jsdom
import type { AuditEntry } from '@flotilla/shared/audit-log/audit-entry';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi, type FakeSession } from '../../test-support/fake-api.js';
import { answerBoot, renderConsoleAt } from '../../test-support/render-console.js';

afterEach(cleanup);

const platformAdmin: FakeSession = { userId: 7, permissions: ['admin.home'] };

const entry = (id: number, action: string, username: string): AuditEntry => ({
  id,
  occurredAt: '2026-11-30T08:00:00.000Z',
  action,
  resource: 'user',
  resourceId: null,
  organizationId: null,
  fleetId: null,
  deviceId: null,
  actor: {
    kind: 'user',
    via: 'session',
    userId: id,
    username,
    fleetId: null,
    deviceId: null,
    impersonatedBy: null,
    impersonatedByUsername: null,
  },
  changes: {},
  address: '203.0.113.9',
  userAgent: null,
  requestId: null,
});

const world = (session: FakeSession) => {
  const api = createFakeApi({}, session);
  answerBoot(api);
  const asked: string[] = [];
  api.on('GET', '/audit-log/v1/entries', (_body, url) => {
    asked.push(url.search);
    return {
      status: 200,
      body: { entries: [entry(2, 'login_failed', 'mallory'), entry(1, 'login', 'ann')] },
    };
  });
  return { api, asked };
};

describe('Admin → Audit log', { timeout: 60_000 }, () => {
  it("shows the installation's records, those of no organization too, with the exports", async () => {
    const { api, asked } = world(platformAdmin);
    renderConsoleAt(api.client, '/admin/audit-log');
    const table = await screen.findByRole(
      'table',
      { name: 'Audit log of the installation' },
      { timeout: 15_000 },
    );
    expect(within(table).getByText('Sign-in refused')).toBeTruthy();
    expect(within(table).getByText('mallory')).toBeTruthy();
    expect(within(table).getByText('Signed in')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
    expect(asked[0]).toContain('limit=50');
  });

  it('says so when nothing is recorded yet, and when filters match nothing', async () => {
    const api = createFakeApi({}, platformAdmin);
    answerBoot(api);
    api.on('GET', '/audit-log/v1/entries', () => ({ status: 200, body: { entries: [] } }));
    renderConsoleAt(api.client, '/admin/audit-log');
    await screen.findByText('Nothing recorded yet.', undefined, { timeout: 15_000 });
    fireEvent.change(screen.getByLabelText('Resource'), { target: { value: 'device' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await screen.findByText('No records match these filters.');
  });

  it('reads users, fleets and devices by name or by id', async () => {
    const { api, asked } = world(platformAdmin);
    renderConsoleAt(api.client, '/admin/audit-log');
    await screen.findByRole(
      'table',
      { name: 'Audit log of the installation' },
      { timeout: 15_000 },
    );
    const type = (label: string, value: string) =>
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
    type('User', 'ann');
    type('Fleet', 'demo/kiosks');
    type('Device', '1234567');
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(asked.at(-1)).toContain('deviceUuid=1234567'));
    expect(asked.at(-1)).toContain('username=ann');
    expect(asked.at(-1)).toContain('fleetName=demo%2Fkiosks');
    type('User', '12');
    type('Fleet', '3');
    type('Device', '42');
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(asked.at(-1)).toContain('device=42'));
    expect(asked.at(-1)).toContain('user=12');
    expect(asked.at(-1)).toContain('fleet=3');
  });

  it('is not for users who are not platform administrators', async () => {
    const { api, asked } = world({ userId: 7, permissions: [] });
    const { router } = renderConsoleAt(api.client, '/admin/audit-log');
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/admin/audit-log'));
    expect(screen.queryByRole('table', { name: 'Audit log of the installation' })).toBeNull();
    expect(asked).toEqual([]);
  });
});
