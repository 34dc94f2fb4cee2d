// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { answerBilling } from '../../test-support/billing-fixtures.js';
import type { FakeData } from '../../test-support/fake-odata.js';
import { acmeId } from '../../test-support/organization-fixtures.js';
import { renderAt } from '../../test-support/render-organization.js';

afterEach(cleanup);

const frozen = (data: FakeData) => {
  data.organization = (data.organization ?? []).map((row) => ({ ...row, is_frozen: true }));
};

describe('a frozen organization', { timeout: 60_000 }, () => {
  it('sends those with billing access to its billing page', async () => {
    const { api } = renderAt(`/orgs/${acmeId}/members`, 'administrator', frozen, {
      billingEnabled: true,
    });
    answerBilling(api, acmeId);
    expect(await screen.findByText(/This organization is frozen: update its billing/)).toBeTruthy();
    const tab = await screen.findByRole('tab', { name: 'Billing' });
    expect(tab.getAttribute('aria-selected')).toBe('true');
  });

  it('sends the other members to their organizations, asking them to reach its administrators', async () => {
    renderAt(`/orgs/${acmeId}`, 'member', frozen, { billingEnabled: true });
    expect(await screen.findByText(/please reach its administrators/)).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Acme' })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Summary' })).toBeNull();
  });

  it('is opened as usual where billing is not used', async () => {
    renderAt(`/orgs/${acmeId}/members`, 'member', frozen, { billingEnabled: false });
    const tab = await screen.findByRole('tab', { name: 'Members' });
    expect(tab.getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByText(/This organization is frozen/)).toBeNull();
  });
});
