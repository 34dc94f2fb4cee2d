import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
// In the entry chunk (0.8 kB): imported lazily, its chunk waited behind the evaluation of the
// shell's chunks and the fleet list's API calls started ~70 ms later on a cold load.
import {
  applicationListQuery,
  applicationStatusCountsQuery,
  organizationIdParam,
} from '../features/fleets/application-queries.js';
import { fetchProfile, profileKey } from '../features/preferences/profile-query.js';

// What route loaders need to start a screen's queries.
export type RouteData = { client: FlotillaClient; queryClient: QueryClient };

const signedInUserId = (client: FlotillaClient): number | null => {
  const session = client.auth.session();
  return session && session.twoFactorRequired !== true ? session.userId : null;
};

// Route loaders run as soon as the router matches a URL, together with the lazy import of the
// route's code: they only start the queries (into the TanStack Query cache the screens read) and
// return at once, so nothing waits on them and a screen renders from the cache when both arrive.
// A failed prefetch is not an error here: the screen's own query shows and retries it.

// The fleet (app, block) list and its device counts.
export const applicationListLoader =
  (data: RouteData | undefined, className: ApplicationClass) =>
  ({ params }: LoaderFunctionArgs): null => {
    if (!data || signedInUserId(data.client) === null) return null;
    const organizationId = organizationIdParam(params.organizationId);
    void data.queryClient.prefetchQuery(
      applicationListQuery(data.client, className, organizationId),
    );
    void data.queryClient.prefetchQuery(
      applicationStatusCountsQuery(data.client, className, organizationId),
    );
    return null;
  };

// The signed-in shell: the user's profile, which it waits for before showing a screen (an
// unverified user goes to the pending page instead), starts with the shell's code.
export const signedInShellLoader = (data: RouteData | undefined) => (): null => {
  const userId = data ? signedInUserId(data.client) : null;
  if (!data || userId === null) return null;
  void data.queryClient.prefetchQuery({
    queryKey: profileKey(userId),
    queryFn: () => fetchProfile(data.client, userId),
    // The loader runs again on some navigations: a recent profile is not read again.
    staleTime: 60_000,
  });
  return null;
};
