import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { fetchProfile, profileKey } from '../../api/session/profile-query.js';
import { useSession } from '../../api/session/useSession.js';

// Whether the signed-in user must verify their e-mail address before anything else (seed 000
// section 2.2: a loading indicator until the profile is loaded, then the pending page for an
// unverified user). 'unknown' while the profile loads: the console waits rather than calling what
// the server refuses an unverified user. If the profile cannot be read the console carries on and
// the server's refusals speak.
export const useMustVerify = (): boolean | 'unknown' => {
  const client = useClient();
  const userId = useSession()?.userId;
  const profile = useQuery({
    queryKey: profileKey(userId),
    queryFn: () => (userId === undefined ? null : fetchProfile(client, userId)),
  });
  if (profile.isPending) return 'unknown';
  return profile.data?.must_be_verified === true && !profile.data.is_verified;
};
