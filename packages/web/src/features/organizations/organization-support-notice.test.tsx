// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { OrganizationSupportNotice } from './OrganizationSupportNotice.js';

afterEach(cleanup);

const day = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * day).toISOString();

// Organization 5's fleets 1 and 2; another organization's fleet 3 (whose grant does not count).
const renderFor = (
  permissions: string[],
  grants: { fleets?: (string | null)[]; device?: string | null; elsewhere?: string } = {},
  member = false,
) => {
  const [first = null, second = null] = grants.fleets ?? [];
  const api = createFakeApi(
    {
      application: [
        { id: 1, organization: { __id: 5 }, is_accessible_by_support_until__date: first },
        { id: 2, organization: { __id: 5 }, is_accessible_by_support_until__date: second },
        {
          id: 3,
          organization: { __id: 6 },
          is_accessible_by_support_until__date: grants.elsewhere ?? null,
        },
      ],
      device: [
        {
          id: 10,
          belongs_to__application: { __id: 2 },
          is_accessible_by_support_until__date: grants.device ?? null,
        },
      ],
    },
    { permissions },
  );
  renderWithClient(api.client, <OrganizationSupportNotice organizationId={5} member={member} />);
  return api;
};

describe('the support access notice on organization pages', () => {
  it('says "no access" to a support agent while nothing of the organization is granted', async () => {
    renderFor(['support.home'], { elsewhere: inDays(3) });
    expect((await screen.findByRole('alert')).textContent).toContain('No support access');
    expect(screen.getByRole('alert').textContent).toContain('this organization');
  });

  it('shows until when, from the latest grant of its fleets and devices', async () => {
    const latest = inDays(4);
    renderFor(['support.home'], { fleets: [inDays(1), inDays(-2)], device: latest });
    expect((await screen.findByRole('alert')).textContent).toBe(
      `Support access until ${new Date(latest).toLocaleString()}.`,
    );
  });

  it('counts an expired grant as none', async () => {
    renderFor(['support.home'], { fleets: [inDays(-1)] });
    expect((await screen.findByRole('alert')).textContent).toContain('No support access');
  });

  it('shows nothing, and reads nothing, for members', async () => {
    const api = renderFor([], { fleets: [inDays(1)] });
    // The query is disabled for them: nothing is ever asked.
    expect(screen.queryByRole('alert')).toBeNull();
    expect(api.reads).toEqual([]);
  });

  it('shows nothing, and reads nothing, to staff who are members of the organization', async () => {
    const api = renderFor(['admin.home'], { fleets: [null] }, true);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(api.reads).toEqual([]);
  });
});
