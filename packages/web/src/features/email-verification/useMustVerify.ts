import { useProfile } from '../../api/session/profile-query.js';

// Whether the signed-in user must verify their e-mail address before anything else: a loading
// indicator until the profile is loaded, then the pending page for an unverified user. 'unknown' while the profile loads: the console waits rather than calling what
// the server refuses an unverified user. If the profile cannot be read the console carries on and
// the server's refusals speak.
export const useMustVerify = (): boolean | 'unknown' => {
  const profile = useProfile();
  if (profile.isPending) return 'unknown';
  return profile.data?.must_be_verified === true && !profile.data.is_verified;
};
