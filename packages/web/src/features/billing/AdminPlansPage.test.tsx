// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { billingCatalogue } from '../../test-support/billing-fixtures.js';
import { createFakeApi, type FakeSession } from '../../test-support/fake-api.js';
import { answerBoot, renderConsoleAt } from '../../test-support/render-console.js';

afterEach(cleanup);

const platformAdmin: FakeSession = { userId: 7, permissions: ['admin.home'] };

const world = (session: FakeSession) => {
  const api = createFakeApi({}, session);
  answerBoot(api);
  const patches: unknown[] = [];
  api.on('GET', '/billing/v1/plans', () => ({ status: 200, body: billingCatalogue }));
  api.on('PATCH', '/billing/v1/admin/plans/pilot-v2', (body) => {
    patches.push(body);
    return patches.length === 1
      ? { status: 400, text: 'Monthly price is too large' }
      : { status: 200, body: billingCatalogue[2] };
  });
  return { api, patches };
};

describe('Admin → Plans', { timeout: 60_000 }, () => {
  it('lists the catalogue and saves a plan’s prices and allowance, showing refusals', async () => {
    const { api, patches } = world(platformAdmin);
    renderConsoleAt(api.client, '/admin/plans');
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Plan catalogue' }, { timeout: 15_000 });
    expect(within(table).getByText('pilot-v2')).toBeTruthy();
    expect(within(table).getByText('$349.00')).toBeTruthy();
    await user.click(within(table).getByRole('button', { name: 'Edit Pilot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the Pilot plan' });
    const monthly = within(dialog).getByLabelText('Monthly price ($)');
    await user.clear(monthly);
    expect(within(dialog).getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
    await user.type(monthly, '399');
    const devices = within(dialog).getByLabelText('Devices included');
    await user.clear(devices);
    await user.type(devices, '60');
    await user.click(within(dialog).getByLabelText('SAML single sign-on'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/Monthly price is too large/)).toBeTruthy();
    expect(patches[0]).toMatchObject({
      monthly_price: 39900,
      features: { 'device:any': 60, saml_access: 1, 'safe-roles-preview-addon': 0 },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Pilot plan saved')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('is not for users who are not platform administrators', async () => {
    const { api } = world({ userId: 7, permissions: [] });
    const { router } = renderConsoleAt(api.client, '/admin/plans');
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/admin/plans'));
    expect(screen.queryByRole('table', { name: 'Plan catalogue' })).toBeNull();
  });
});
