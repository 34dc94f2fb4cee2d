import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import type { LoaderFunctionArgs } from 'react-router';
// In the entry chunk (0.8 kB): imported lazily, its chunk waited behind the evaluation of the
// shell's chunks and the fleet list's API calls started ~70 ms later on a cold load.
import {
  fleetListQuery,
  fleetStatusCountsQuery,
  organizationIdParam,
} from '../fleet/api-fleet-list.js';
import { type RouteData, signedInUserId } from '../api/route-data.js';
import { profileQuery } from '../api/session/profile-query.js';
import { bootQuery } from '../api/session/api-boot.js';

// Route loaders run as soon as the router matches a URL, together with the lazy import of the
// route's code: they only start the queries (into the TanStack Query cache the screens read) and
// return at once, so nothing waits on them and a screen renders from the cache when both arrive.
// A failed prefetch is not an error here: the screen's own query shows and retries it.

// The fleet (app, block) list and its device counts.
export const fleetListLoader =
  (data: RouteData | undefined, className: ApplicationClass) =>
  ({ params }: Pick<LoaderFunctionArgs, 'params'>): null => {
    if (!data || signedInUserId(data) === null) return null;
    const organizationId = organizationIdParam(params.organizationId);
    void data.queryClient.prefetchQuery(fleetListQuery(data.client, className, organizationId));
    void data.queryClient.prefetchQuery(
      fleetStatusCountsQuery(data.client, className, organizationId),
    );
    return null;
  };

// The signed-in shell: the user's profile, which it waits for before showing a screen (an
// unverified user goes to the pending page instead), starts with the shell's code.
export const signedInShellLoader = (data: RouteData | undefined) => (): null => {
  const userId = data ? signedInUserId(data) : null;
  if (!data || userId === null) return null;
  // The loader runs again on some navigations: a recent profile is not read again (its staleTime).
  void data.queryClient.prefetchQuery(profileQuery(data.client, userId));
  return null;
};

// The list screens' paths (router.tsx: `/fleets`, `/apps`, `/blocks`, each also under
// `/orgs/:organizationId`; `/` redirects to `/fleets`). Matched by hand because early-start.ts
// runs before React Router's code is evaluated.
const listPath = /^(?:\/orgs\/(\d+))?\/(fleets|apps|blocks)\/?$/;
const classOfSegment = { fleets: 'fleet', apps: 'app', blocks: 'block' } as const;

// Starts the landing screen's queries from the address alone (early-start.ts): the boot
// (configuration and whoami, which BootGate waits for before the first screen), the signed-in
// user's profile (the shell waits for it; harmless elsewhere, nothing for a guest) and a list
// screen's queries. The router's loaders then find them running or answered in the cache.
export const startLandingQueries = (pathname: string, data: RouteData): void => {
  void data.queryClient.prefetchQuery(bootQuery(data.client));
  signedInShellLoader(data)();
  if (pathname === '/') {
    fleetListLoader(data, 'fleet')({ params: {} });
    return;
  }
  const match = listPath.exec(pathname);
  const segment = match?.[2];
  if (!match || (segment !== 'fleets' && segment !== 'apps' && segment !== 'blocks')) return;
  fleetListLoader(
    data,
    classOfSegment[segment],
  )({ params: match[1] === undefined ? {} : { organizationId: match[1] } });
};
