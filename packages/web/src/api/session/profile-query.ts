import type { FlotillaClient } from '@flotilla/sdk/create-client';

// The signed-in user's own profile: read by the shell (must they verify first?), the pending and
// profile-step pages and Preferences. A module of its own: the route loader in the entry chunk
// starts it (app/route-prefetch.ts).
export const profileKey = (userId: number | undefined) => ['user-profile', userId] as const;

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
      ],
      $filter: { is_of__user: userId },
    },
  });
  return profile ?? null;
};
