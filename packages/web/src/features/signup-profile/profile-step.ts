// Sign-up leads to verification (when required), then /signup/profile, then
// the stored redirect or /. A new account's pending profile step is kept per user in local
// storage with where to go afterwards, so it survives the verification link opened in another
// tab of the same browser. (A link opened in another browser goes straight on: the profile can
// still be completed in Preferences.)
const key = (userId: number): string => `flotilla.signupProfile.${userId}`;

const safePath = (value: string | null): string =>
  value?.startsWith('/') && !value.startsWith('//') ? value : '/';

export const rememberProfileStep = (userId: number, redirect: string | null): void => {
  try {
    window.localStorage.setItem(key(userId), safePath(redirect));
  } catch {
    // Storage may be unavailable (private mode): the step is then skipped.
  }
};

// Where to go once the profile is saved, or null when this user has no pending profile step.
export const pendingProfileStep = (userId: number): string | null => {
  try {
    const stored = window.localStorage.getItem(key(userId));
    return stored === null ? null : safePath(stored);
  } catch {
    return null;
  }
};

export const finishProfileStep = (userId: number): void => {
  try {
    window.localStorage.removeItem(key(userId));
  } catch {
    // Nothing stored, nothing to end.
  }
};

export const signupProfilePath = '/signup/profile';
