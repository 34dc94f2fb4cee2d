// @vitest-environment jsdom
import type { AdminTicketField } from '@flotilla/shared/support/ticket-field-admin';
import { ticketFieldMessages } from '@flotilla/shared/support/ticket-field-admin';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { TicketFieldsPage } from './TicketFieldsPage.js';

afterEach(cleanup);

const area: AdminTicketField = {
  id: 1,
  type: 'tagger',
  title: 'Area',
  description: 'What it is about',
  required: true,
  active: true,
  position: 1,
  options: [
    { name: 'Devices', value: 'devices' },
    { name: 'Other', value: 'other' },
  ],
};

const renderPage = (permissions: string[], fields: AdminTicketField[] | 'fails' = [area]) => {
  const api = createFakeApi({}, { permissions });
  const sent: { method: string; path: string; body: unknown }[] = [];
  api.on('GET', '/admin/v1/support/ticket-fields', () =>
    fields === 'fails'
      ? { status: 500, text: 'The database is away' }
      : { status: 200, body: fields },
  );
  api.on('POST', '/admin/v1/support/ticket-fields', (body) => {
    sent.push({ method: 'POST', path: '', body });
    return { status: 201, body: { id: 2 } };
  });
  api.on('PUT', '/admin/v1/support/ticket-fields/1', (body) => {
    sent.push({ method: 'PUT', path: '1', body });
    return { status: 200, body: { id: 1 } };
  });
  renderWithClient(api.client, <TicketFieldsPage />);
  return sent;
};

describe('Admin → Ticket fields', () => {
  it('lists the fields and hides one from the form', async () => {
    const sent = renderPage(['admin.home']);
    expect(await screen.findByRole('cell', { name: 'Area' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'Drop-down' })).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit Area' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the ticket field' });
    const options = within(dialog).getByLabelText('Options');
    expect(options instanceof HTMLTextAreaElement ? options.value : null).toBe(
      'Devices = devices\nOther = other',
    );
    await user.click(within(dialog).getByLabelText('Shown on the ticket form'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ method: 'PUT', body: { title: 'Area', active: false } });
  });

  it('adds a drop-down, saying what is missing first', async () => {
    const sent = renderPage(['admin.home'], []);
    expect(await screen.findByText(/No ticket fields/)).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add field' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a ticket field' });
    await user.type(within(dialog).getByLabelText('Title'), 'Hardware');
    await user.click(within(dialog).getByLabelText('Type'));
    await user.click(await screen.findByRole('option', { name: 'Drop-down' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText(ticketFieldMessages.optionsRequired)).toBeTruthy();
    expect(sent).toEqual([]);
    await user.type(within(dialog).getByLabelText('Options'), 'Raspberry Pi 4 = rpi4{Enter}Other');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.body).toEqual({
      type: 'tagger',
      title: 'Hardware',
      description: '',
      required: false,
      active: true,
      position: 0,
      options: [
        { name: 'Raspberry Pi 4', value: 'rpi4' },
        { name: 'Other', value: 'Other' },
      ],
    });
  });

  it('says when the fields cannot be read', async () => {
    renderPage(['admin.home'], 'fails');
    expect(await screen.findByText(/The database is away/)).toBeTruthy();
  });

  it('is not for support agents', async () => {
    renderPage(['support.home']);
    expect(screen.queryByRole('button', { name: 'Add field' })).toBeNull();
  });
});
