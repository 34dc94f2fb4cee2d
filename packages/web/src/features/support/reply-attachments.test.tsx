// @vitest-environment jsdom
import type { TicketDetail } from '@flotilla/shared/support/support-tickets';
import { attachmentTooLargeMessage } from '@flotilla/shared/support/support-tickets';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { OrganizationTicketPage } from './OrganizationTicketPage.js';

afterEach(cleanup);

const ticket: TicketDetail = {
  id: 5,
  organization: { id: 3, name: 'acme' },
  subject: 'Device offline',
  status: 'pending',
  priority: 'normal',
  requester: 'ada',
  assignee: null,
  createdAt: '2026-11-01T10:00:00Z',
  updatedAt: '2026-11-01T10:00:00Z',
  cc: [],
  customFields: [],
  messages: [
    {
      id: 1,
      author: 'ada',
      fromAgent: false,
      body: 'It stopped reporting.',
      createdAt: '2026-11-01T10:00:00Z',
      attachments: [],
    },
  ],
};

// The organization's ticket page, whose reply carries files: each is uploaded to the
// organization's desk, then the reply names their tokens.
const renderPage = () => {
  const api = createFakeApi({});
  api.on('GET', '/support/v1/tickets/5', () => ({ status: 200, body: ticket }));
  const uploads: string[] = [];
  api.on('POST', '/zendesk/v1/3/upload-attachment', () => {
    uploads.push(`token-${uploads.length + 1}`);
    return { status: 201, body: { upload: { token: uploads.at(-1) } } };
  });
  const replies: unknown[] = [];
  api.on('POST', '/support/v1/tickets/5/messages', (body) => {
    replies.push(body);
    return { status: 201, body: { id: 2 } };
  });
  renderWithClient(
    api.client,
    <Routes>
      <Route path="/orgs/:organizationId/support/:ticketId" element={<OrganizationTicketPage />} />
    </Routes>,
    '/orgs/3/support/5',
  );
  return { uploads, replies };
};

describe('replying to a ticket with attachments', () => {
  it('uploads the files, then sends the reply naming them', async () => {
    const { uploads, replies } = renderPage();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Your reply'), 'Here are the logs.');
    await user.upload(screen.getByLabelText('Attachments'), [
      new File(['one'], 'one.log', { type: 'text/plain' }),
      new File(['two'], 'two.log', { type: 'text/plain' }),
    ]);
    expect(screen.getByText('one.log (1 kB)')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send reply' }));
    await waitFor(() =>
      expect(replies).toEqual([{ body: 'Here are the logs.', uploads: ['token-1', 'token-2'] }]),
    );
    expect(uploads).toHaveLength(2);
    // The box is empty again, files included.
    await waitFor(() => expect(screen.queryByText('one.log (1 kB)')).toBeNull());
  });

  it('refuses to send a file over 5 MB', async () => {
    const { replies } = renderPage();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Your reply'), 'Big one.');
    const big = new File(['x'], 'big.bin', { type: 'application/octet-stream' });
    Object.defineProperty(big, 'size', { value: 6 * 1024 * 1024 });
    await user.upload(screen.getByLabelText('Attachments'), big);
    expect(screen.getByText(attachmentTooLargeMessage)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send reply' }).hasAttribute('disabled')).toBe(true);
    expect(replies).toEqual([]);
  });
});
