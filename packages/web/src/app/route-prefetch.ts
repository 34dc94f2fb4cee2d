import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';

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
    // The queries' module is the screen's too (a chunk of its own, preloaded with the page on a
    // cold load: route-preloads.ts), so the entry chunk does not carry it.
    void import('../features/fleets/application-queries.js').then((queries) => {
      const organizationId = queries.organizationIdParam(params.organizationId);
      void data.queryClient.prefetchQuery(
        queries.applicationListQuery(data.client, className, organizationId),
      );
      void data.queryClient.prefetchQuery(
        queries.applicationStatusCountsQuery(data.client, className, organizationId),
      );
    });
    return null;
  };
