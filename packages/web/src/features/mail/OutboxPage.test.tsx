// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi, type FakeSession } from '../../test-support/fake-api.js';
import { renderConsoleAt } from '../../test-support/render-console.js';

afterEach(cleanup);

const renderAt = (session: FakeSession, transport: 'outbox' | 'smtp' = 'outbox') => {
  const api = createFakeApi({ application: [] }, session);
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null, helpLinks: {} } }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'ada', email: 'ada@x.test' },
  }));
  api.on('GET', '/admin/v1/mail', () => ({
    status: 200,
    body: {
      transport,
      total: 1,
      messages: [
        {
          id: 1,
          createdAt: '2026-11-24T09:00:00.000Z',
          to: 'bob@example.com',
          subject: 'ada invited you to Acme',
          links: ['http://console.test/organization/invitation/abc.def'],
          status: 'sent',
          attempts: 1,
          lastError: null,
        },
      ],
    },
  }));
  const { router } = renderConsoleAt(api.client, '/admin/outbox');
  return router;
};

describe('OutboxPage', { timeout: 30_000 }, () => {
  it('lists the kept mail with its links for a platform administrator', async () => {
    renderAt({ permissions: ['admin.home'] });
    expect(await screen.findByText('ada invited you to Acme')).toBeTruthy();
    expect(
      screen.getByRole('link', { name: 'http://console.test/organization/invitation/abc.def' }),
    ).toBeTruthy();
    expect(screen.getByText(/No SMTP server is configured/)).toBeTruthy();
  });

  it('says that mail sent through SMTP is kept without its links', async () => {
    renderAt({ permissions: ['admin.home'] }, 'smtp');
    expect(
      await screen.findByText(
        'Messages are sent through SMTP; once sent, they are kept here without their links.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/No SMTP server is configured/)).toBeNull();
  });

  it('sends anyone else to the start page', async () => {
    const router = renderAt({});
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/admin/outbox'));
  });
});
