// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { acmeId, organizationWorld } from '../../test-support/organization-fixtures.js';
import { BillingNotices } from './BillingNotices.js';

afterEach(cleanup);

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

// The strip over the strict fake API, for ada, administrator of Acme.
const render = (acme: Record<string, unknown>, path = '/fleets') => {
  const data = organizationWorld('administrator');
  data.organization = (data.organization ?? []).map((row) =>
    row.id === acmeId
      ? {
          ...row,
          is_frozen: false,
          has_past_due_invoice_since__date: null,
          organization_credit_notification: [],
          owns__credit_bundle: [],
          ...acme,
        }
      : row,
  );
  const api = createFakeApi(data);
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'ada', email: 'ada@x.test' },
  }));
  renderWithClient(api.client, <BillingNotices />, path);
};

describe('the billing notices strip', { timeout: 30_000 }, () => {
  it('counts down to freezing from the 30th day past due, with a link to billing', async () => {
    render({ has_past_due_invoice_since__date: daysAgo(40) });
    expect(
      await screen.findByText(
        'Acme has an invoice 40 days past due: it will be frozen in 20 days.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Pay now' }).getAttribute('href')).toBe(
      `/orgs/${acmeId}/billing`,
    );
  });

  it('says an organization is frozen, and when credits run low', async () => {
    render({
      is_frozen: true,
      has_past_due_invoice_since__date: daysAgo(61),
      organization_credit_notification: [{ is_sent_when_below__threshold: 10 }],
      owns__credit_bundle: [{ total_balance: 3, payment_status: 'paid' }],
    });
    expect(await screen.findByText(/^Acme is frozen/)).toBeTruthy();
    expect(screen.getByText('Acme is low on credits: 3 left.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add credits' }).getAttribute('href')).toBe(
      `/orgs/${acmeId}/credits`,
    );
  });
});
