import { QueryClient, QueryObserver } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { describe, expect, it } from 'vitest';
import { fleetRow, fleetFixture } from '../test-support/fleet-helpers.js';
import { createFakeApi } from '../test-support/fake-api.js';
import { userProfileRow } from '../test-support/profile-fixtures.js';
import { fleetListLoader, signedInShellLoader, startLandingQueries } from './route-prefetch.js';
import { fleetKeys } from '../fleet/query-keys.js';
import { sessionKeys } from '../api/session/query-keys.js';
import { profileQuery } from '../api/session/profile-query.js';
import { publicConfigQuery } from '../api/config/api.js';
import { configKeys } from '../api/config/query-keys.js';

// A fleet the signed-in user reaches directly, with the fields the list's queries read.
const oneFleet = fleetRow(fleetFixture({ id: 1, app_name: 'Greenhouse', slug: 'acme/greenhouse' }));

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
    const api = createFakeApi({ application: [oneFleet] });
    const queryClient = new QueryClient();
    expect(
      fleetListLoader({ client: api.client, queryClient }, 'fleet')(args('/fleets', '/fleets')),
    ).toBeNull();
    // Started by the loader alone, without the screen.
    await expect
      .poll(() => queryClient.getQueryState(fleetKeys.list('fleet', undefined)))
      .toBeTruthy();
    expect(queryClient.getQueryState(fleetKeys.statusCounts('fleet', undefined))).toBeTruthy();
    await expect
      .poll(() => queryClient.getQueryState(fleetKeys.list('fleet', undefined))?.status)
      .toBe('success');
    expect(api.reads.every((url) => url.pathname.startsWith('/v7/application'))).toBe(true);
  });

  it("start the signed-in user's profile with the shell, which waits for it", async () => {
    const api = createFakeApi({ user_profile: [userProfileRow()] });
    const queryClient = new QueryClient();
    expect(signedInShellLoader({ client: api.client, queryClient })()).toBeNull();
    await expect
      .poll(() => queryClient.getQueryState(sessionKeys.profile(7))?.status)
      .toBe('success');
    expect(api.reads).toHaveLength(1);
    // Run again soon after (another navigation): the profile is not read twice.
    signedInShellLoader({ client: api.client, queryClient })();
    expect(api.reads.map((url) => url.pathname)).toEqual(['/v7/user_profile']);
  });

  it("start one organization's list under its own key", async () => {
    const api = createFakeApi({ application: [oneFleet] });
    const queryClient = new QueryClient();
    fleetListLoader(
      { client: api.client, queryClient },
      'block',
    )(args('/orgs/12/blocks', '/orgs/:organizationId/blocks', { organizationId: '12' }));
    await expect.poll(() => queryClient.getQueryState(fleetKeys.list('block', 12))).toBeTruthy();
  });

  it('ask nothing without a session, or with a second factor pending', async () => {
    const refused = [null, { twoFactorRequired: true }].map((session) => {
      const api = createFakeApi({}, session);
      const queryClient = new QueryClient();
      fleetListLoader({ client: api.client, queryClient }, 'fleet')(args('/fleets', '/fleets'));
      return { api, queryClient };
    });
    // A signed-in loader started after them has asked: theirs would have by now.
    const signedIn = createFakeApi({ application: [oneFleet] });
    fleetListLoader(
      { client: signedIn.client, queryClient: new QueryClient() },
      'fleet',
    )(args('/fleets', '/fleets'));
    await expect.poll(() => signedIn.reads.length).toBeGreaterThan(0);
    for (const { api, queryClient } of refused) {
      expect(queryClient.getQueryCache().getAll()).toEqual([]);
      expect(api.reads).toEqual([]);
    }
    expect(fleetListLoader(undefined, 'fleet')(args('/fleets', '/fleets'))).toBeNull();
  });

  it('start the boot, the landing list and the profile from the address alone, before the router exists', () => {
    const started = (pathname: string, session: { userId?: number } | null = { userId: 7 }) => {
      const api = createFakeApi({ application: [oneFleet], user_profile: [] }, session);
      api.on('GET', '/config', () => ({ status: 200, body: { deployment: null } }));
      api.on('GET', '/actor/v1/whoami', () => ({
        status: 200,
        body: { id: 1, actorType: 'user', actorTypeId: 7, username: 'ada', email: null },
      }));
      const queryClient = new QueryClient();
      startLandingQueries(pathname, { client: api.client, queryClient });
      return queryClient
        .getQueryCache()
        .getAll()
        .map((query) => query.queryKey);
    };
    // The boot reads the configuration into the query the screens read it from.
    const bootKeys = [sessionKeys.boot, configKeys.public];
    const profile = sessionKeys.profile(7);
    expect(started('/')).toEqual([
      ...bootKeys,
      profile,
      fleetKeys.list('fleet', undefined),
      fleetKeys.statusCounts('fleet', undefined),
    ]);
    expect(started('/apps/')).toEqual([
      ...bootKeys,
      profile,
      fleetKeys.list('app', undefined),
      fleetKeys.statusCounts('app', undefined),
    ]);
    expect(started('/orgs/12/blocks')).toEqual([
      ...bootKeys,
      profile,
      fleetKeys.list('block', 12),
      fleetKeys.statusCounts('block', 12),
    ]);
    // Other screens start only the boot and the profile here: their loaders run when the router
    // exists.
    for (const other of ['/fleets/5', '/fleetsx', '/orgs/acme/fleets', '/devices/abc']) {
      expect(started(other)).toEqual([...bootKeys, profile]);
    }
    // A guest starts the boot alone (the public configuration).
    expect(started('/login', null)).toEqual(bootKeys);
  });

  it('ask for the configuration and the profile once on a cold load, not again when the shell mounts', async () => {
    const api = createFakeApi({ user_profile: [userProfileRow()] });
    let configReads = 0;
    api.on('GET', '/config', () => {
      configReads += 1;
      return { status: 200, body: { deployment: null } };
    });
    api.on('GET', '/actor/v1/whoami', () => ({
      status: 200,
      body: { id: 1, actorType: 'user', actorTypeId: 7, username: 'ada', email: null },
    }));
    const queryClient = new QueryClient();
    startLandingQueries('/fleets/5', { client: api.client, queryClient });
    await expect.poll(() => queryClient.getQueryState(configKeys.public)?.status).toBe('success');
    await expect
      .poll(() => queryClient.getQueryState(sessionKeys.profile(7))?.status)
      .toBe('success');
    // The shell's screens mount: their observers find both answers fresh in the cache.
    const observers = [
      new QueryObserver(queryClient, publicConfigQuery(api.client)),
      new QueryObserver(queryClient, profileQuery(api.client, 7)),
    ];
    const unsubscribes = observers.map((observer) => observer.subscribe(() => undefined));
    expect(observers.map((observer) => observer.getCurrentResult().isFetching)).toEqual([
      false,
      false,
    ]);
    for (const unsubscribe of unsubscribes) unsubscribe();
    expect(configReads).toBe(1);
    expect(api.reads.map((url) => url.pathname)).toEqual(['/v7/user_profile']);
  });
});
