import { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { describe, expect, it } from 'vitest';
import { applicationRow, fleetFixture } from '../features/fleets/application/test-helpers.js';
import { createFakeApi } from '../test-support/fake-api.js';
import { applicationListLoader } from './route-prefetch.js';

// A fleet the signed-in user reaches directly, with the fields the list's queries read.
const fleetRow = applicationRow(
  fleetFixture({ id: 1, app_name: 'Greenhouse', slug: 'acme/greenhouse' }),
);

const args = (
  path: string,
  pattern: string,
  params: Record<string, string> = {},
): LoaderFunctionArgs => ({
  request: new Request(`http://localhost${path}`),
  url: new URL(`http://localhost${path}`),
  pattern,
  params,
  context: undefined,
});

describe('route loaders', () => {
  it("start the fleet list's queries at navigation, into the cache the screen reads", async () => {
    const api = createFakeApi({ application: [fleetRow] });
    const queryClient = new QueryClient();
    expect(
      applicationListLoader(
        { client: api.client, queryClient },
        'fleet',
      )(args('/fleets', '/fleets')),
    ).toBeNull();
    // Started synchronously, before any code of the screen exists.
    expect(queryClient.getQueryState(['applications', 'fleet', undefined])?.fetchStatus).toBe(
      'fetching',
    );
    expect(
      queryClient.getQueryState(['applications', 'fleet', undefined, 'status-counts'])?.fetchStatus,
    ).toBe('fetching');
    await expect
      .poll(() => queryClient.getQueryState(['applications', 'fleet', undefined])?.status)
      .toBe('success');
    expect(api.reads.every((url) => url.pathname.startsWith('/v7/application'))).toBe(true);
  });

  it("start one organization's list under its own key", () => {
    const api = createFakeApi({ application: [fleetRow] });
    const queryClient = new QueryClient();
    applicationListLoader(
      { client: api.client, queryClient },
      'block',
    )(args('/orgs/12/blocks', '/orgs/:organizationId/blocks', { organizationId: '12' }));
    expect(queryClient.getQueryState(['applications', 'block', 12])).toBeTruthy();
  });

  it('ask nothing without a session, or with a second factor pending', () => {
    for (const session of [null, { twoFactorRequired: true }]) {
      const api = createFakeApi({}, session);
      const queryClient = new QueryClient();
      applicationListLoader(
        { client: api.client, queryClient },
        'fleet',
      )(args('/fleets', '/fleets'));
      expect(queryClient.getQueryCache().getAll()).toEqual([]);
    }
    expect(applicationListLoader(undefined, 'fleet')(args('/fleets', '/fleets'))).toBeNull();
  });
});
