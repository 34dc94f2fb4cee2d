// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi, type FakeSession } from '../../test-support/fake-api.js';
import { answerBoot, renderConsoleAt } from '../../test-support/render-console.js';

afterEach(cleanup);

const platformAdmin: FakeSession = { userId: 7, permissions: ['admin.home'] };

const world = (session: FakeSession, rates: Record<string, number>) => {
  const api = createFakeApi({}, session);
  answerBoot(api);
  const puts: unknown[] = [];
  const gets = { count: 0 };
  api.on('GET', '/billing/v1/admin/sales-tax', () => {
    gets.count += 1;
    return { status: 200, body: { rates } };
  });
  api.on('PUT', '/billing/v1/admin/sales-tax', (body) => {
    puts.push(body);
    return puts.length === 1
      ? { status: 400, text: 'rates.ZZ: not a US state code' }
      : { status: 200, body };
  });
  return { api, puts, gets };
};

describe('Admin → Sales tax', { timeout: 60_000 }, () => {
  it('shows the rates, refuses a bad rate before sending, and saves them all at once', async () => {
    const { api, puts } = world(platformAdmin, { '*': 0, CA: 7.25 });
    renderConsoleAt(api.client, '/admin/sales-tax');
    const user = userEvent.setup();
    const table = await screen.findByRole(
      'table',
      { name: 'Sales tax rates' },
      { timeout: 15_000 },
    );
    // The states in order, "every other state" last.
    expect(within(table).getByLabelText('Rate for CA')).toHaveProperty('value', '7.25');
    expect(within(table).getByLabelText('Rate for *')).toHaveProperty('value', '0');

    await user.click(screen.getByRole('button', { name: 'Add a state' }));
    const added = within(table).getByLabelText('Rate for AL');
    const save = screen.getByRole('button', { name: 'Save rates' });
    // An empty or impossible rate is refused on the spot: nothing is sent.
    expect(save).toHaveProperty('disabled', true);
    await user.type(added, '101');
    expect(screen.getByText('A percentage from 0 to 100, at most 3 decimals')).toBeTruthy();
    expect(save).toHaveProperty('disabled', true);
    await user.clear(added);
    await user.type(added, '4');
    await user.click(within(table).getByRole('button', { name: 'Remove CA' }));

    // The server's refusal is shown, and the rows stay as typed.
    await user.click(save);
    expect(await screen.findByText(/rates.ZZ: not a US state code/)).toBeTruthy();
    expect(puts).toEqual([{ rates: { '*': 0, AL: 4 } }]);
    await user.click(save);
    await screen.findByText('Sales tax rates saved');
    expect(puts[1]).toEqual({ rates: { '*': 0, AL: 4 } });
    expect(within(table).queryByLabelText('Rate for CA')).toBeNull();
  });

  it('says when no rate is set', async () => {
    const { api } = world(platformAdmin, {});
    renderConsoleAt(api.client, '/admin/sales-tax');
    expect(
      await screen.findByText(
        'No rate is set: invoices to US addresses carry no sales tax.',
        undefined,
        {
          timeout: 15_000,
        },
      ),
    ).toBeTruthy();
  });

  it('is closed to anyone but platform administrators, and reads nothing for them', async () => {
    const { api, gets } = world({ userId: 8, permissions: [] }, { CA: 7.25 });
    const { router } = renderConsoleAt(api.client, '/admin/sales-tax');
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/admin/sales-tax'));
    expect(screen.queryByRole('table', { name: 'Sales tax rates' })).toBeNull();
    expect(gets.count).toBe(0);
  });
});
