import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useClient } from '../client.js';
import { sessionKeys } from './query-keys.js';
import { useSession } from './useSession.js';

// The signed-in user's own profile: read by the shell (must they verify first?), the pending and
// profile-step pages and Preferences. A module of its own: the route loader in the entry chunk
// starts it (app/route-prefetch.ts).
export const profileKey = sessionKeys.profile;

// The signed-in user's own profile (v7 user_profile: only their own row is readable).
export const fetchProfile = async (client: FlotillaClient, userId: number) => {
  const [profile] = await client.pine.get({
    resource: 'user_profile',
    options: {
      $select: [
        'email',
        'first_name',
        'last_name',
        'company',
        'account_type',
        'has_disabled_newsletter',
        'has_password_set',
        'is_verified',
        'must_be_verified',
        'username',
        'created_at',
      ],
      $filter: { is_of__user: userId },
    },
  });
  return profile ?? null;
};

// Null without a signed-in user. A profile read in the last minute is not read again when a
// screen mounts: on a cold load the route loader reads it just before the shell mounts, and the
// console's own changes to it refresh it (useSaveProfile).
export const profileQuery = (client: FlotillaClient, userId: number | undefined) =>
  queryOptions({
    queryKey: sessionKeys.profile(userId),
    queryFn: () => (userId === undefined ? null : fetchProfile(client, userId)),
    staleTime: 60_000,
  });

// The signed-in user's own profile.
export const useProfile = () => {
  const client = useClient();
  const userId = useSession()?.userId;
  return useQuery(profileQuery(client, userId));
};
