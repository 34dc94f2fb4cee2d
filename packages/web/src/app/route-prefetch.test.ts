import { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { emailVerificationKey } from '../features/session/guards.js';
import { fakeClient } from '../features/fleets/application/test-helpers.js';
import { applicationListLoader, signedInLoader } from './route-prefetch.js';

const fleetRows = [{ id: 1, app_name: 'Greenhouse' }];

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

const resourcesAsked = (calls: unknown[][]): string[] =>
  calls.map(([params]) =>
    typeof params === 'object' && params !== null && 'resource' in params
      ? String(params.resource)
      : '?',
  );

describe('route loaders', () => {
  it("start the fleet list's queries at navigation, into the cache the screen reads", async () => {
    const { client, pine } = fakeClient({ application: fleetRows });
    const queryClient = new QueryClient();
    expect(
      applicationListLoader({ client, queryClient }, 'fleet')(args('/fleets', '/fleets')),
    ).toBeNull();
    // Started synchronously, before any code of the screen exists.
    expect(resourcesAsked(pine.get.mock.calls)).toEqual(Array(8).fill('application'));
    await expect
      .poll(() => queryClient.getQueryData(['applications', 'fleet', undefined]))
      .toEqual(fleetRows);
    expect(
      queryClient.getQueryState(['applications', 'fleet', undefined, 'status-counts']),
    ).toBeTruthy();
  });

  it("start one organization's list under its own key", () => {
    const { client } = fakeClient({ application: fleetRows });
    const queryClient = new QueryClient();
    applicationListLoader(
      { client, queryClient },
      'block',
    )(args('/orgs/12/blocks', '/orgs/:organizationId/blocks', { organizationId: '12' }));
    expect(queryClient.getQueryState(['applications', 'block', 12])).toBeTruthy();
  });

  it("start the guard's profile read for a signed-in user", () => {
    const { client, pine } = fakeClient({ user_profile: [] }, {}, { userId: 7 });
    const queryClient = new QueryClient();
    signedInLoader({ client, queryClient })();
    expect(resourcesAsked(pine.get.mock.calls)).toEqual(['user_profile']);
    expect(queryClient.getQueryState(emailVerificationKey(7))).toBeTruthy();
  });

  it('ask nothing without a session, or with a second factor pending', () => {
    for (const session of [null, { twoFactorRequired: true }] as const) {
      const { client, pine } = fakeClient({}, {}, session ?? {});
      if (session === null) vi.spyOn(client.auth, 'session').mockReturnValue(null);
      const queryClient = new QueryClient();
      applicationListLoader({ client, queryClient }, 'fleet')(args('/fleets', '/fleets'));
      signedInLoader({ client, queryClient })();
      expect(pine.get).not.toHaveBeenCalled();
    }
    expect(applicationListLoader(undefined, 'fleet')(args('/fleets', '/fleets'))).toBeNull();
  });
});
