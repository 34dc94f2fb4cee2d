import { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { describe, expect, it } from 'vitest';
import { applicationRow, fleetFixture } from '../features/fleets/application/test-helpers.js';
import { createFakeApi } from '../test-support/fake-api.js';
import { applicationListLoader, startLandingQueries } from './route-prefetch.js';

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
    // Started by the loader alone, without the screen.
    await expect
      .poll(() => queryClient.getQueryState(['applications', 'fleet', undefined]))
      .toBeTruthy();
    expect(
      queryClient.getQueryState(['applications', 'fleet', undefined, 'status-counts']),
    ).toBeTruthy();
    await expect
      .poll(() => queryClient.getQueryState(['applications', 'fleet', undefined])?.status)
      .toBe('success');
    expect(api.reads.every((url) => url.pathname.startsWith('/v7/application'))).toBe(true);
  });

  it("start one organization's list under its own key", async () => {
    const api = createFakeApi({ application: [fleetRow] });
    const queryClient = new QueryClient();
    applicationListLoader(
      { client: api.client, queryClient },
      'block',
    )(args('/orgs/12/blocks', '/orgs/:organizationId/blocks', { organizationId: '12' }));
    await expect.poll(() => queryClient.getQueryState(['applications', 'block', 12])).toBeTruthy();
  });

  it('ask nothing without a session, or with a second factor pending', async () => {
    const refused = [null, { twoFactorRequired: true }].map((session) => {
      const api = createFakeApi({}, session);
      const queryClient = new QueryClient();
      applicationListLoader(
        { client: api.client, queryClient },
        'fleet',
      )(args('/fleets', '/fleets'));
      return { api, queryClient };
    });
    // A signed-in loader started after them has asked: theirs would have by now.
    const signedIn = createFakeApi({ application: [fleetRow] });
    applicationListLoader(
      { client: signedIn.client, queryClient: new QueryClient() },
      'fleet',
    )(args('/fleets', '/fleets'));
    await expect.poll(() => signedIn.reads.length).toBeGreaterThan(0);
    for (const { api, queryClient } of refused) {
      expect(queryClient.getQueryCache().getAll()).toEqual([]);
      expect(api.reads).toEqual([]);
    }
    expect(applicationListLoader(undefined, 'fleet')(args('/fleets', '/fleets'))).toBeNull();
  });

  it('start the landing list from the address alone, before the router exists', () => {
    const started = (pathname: string) => {
      const api = createFakeApi({ application: [fleetRow] });
      const queryClient = new QueryClient();
      startLandingQueries(pathname, { client: api.client, queryClient });
      return queryClient
        .getQueryCache()
        .getAll()
        .map((query) => query.queryKey);
    };
    expect(started('/')).toEqual([
      ['applications', 'fleet', undefined],
      ['applications', 'fleet', undefined, 'status-counts'],
    ]);
    expect(started('/apps/')).toEqual([
      ['applications', 'app', undefined],
      ['applications', 'app', undefined, 'status-counts'],
    ]);
    expect(started('/orgs/12/blocks')).toEqual([
      ['applications', 'block', 12],
      ['applications', 'block', 12, 'status-counts'],
    ]);
    // Other screens start nothing here: their loaders run when the router exists.
    for (const other of ['/fleets/5', '/fleetsx', '/orgs/acme/fleets', '/login', '/devices/abc']) {
      expect(started(other)).toEqual([]);
    }
  });
});
