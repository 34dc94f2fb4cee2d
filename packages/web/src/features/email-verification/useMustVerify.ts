import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../app/client.js';
import { fetchProfile, profileKey } from '../preferences/account-queries.js';
import { useSession } from '../session/useSession.js';

// Whether the signed-in user must verify their e-mail address before anything else (seed 000
// section 2.2). Until the profile is known (or if it cannot be read) the console carries on: the
// check guides the user, it protects nothing.
export const useMustVerify = (): boolean => {
  const client = useClient();
  const userId = useSession()?.userId;
  const profile = useQuery({
    queryKey: profileKey(userId),
    queryFn: () => (userId === undefined ? null : fetchProfile(client, userId)),
  });
  return profile.data?.must_be_verified === true && !profile.data.is_verified;
};
