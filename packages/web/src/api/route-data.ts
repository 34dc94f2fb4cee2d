import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { QueryClient } from '@tanstack/react-query';

// What route loaders need to start a screen's queries.
export type RouteData = { client: FlotillaClient; queryClient: QueryClient };

// The signed-in user whose data a loader may start, or null for a guest or a login still waiting
// for its second factor.
export const signedInUserId = (data: RouteData): number | null => {
  const session = data.client.auth.session();
  return session && session.twoFactorRequired !== true ? session.userId : null;
};
