// Where the user was going when they left for the provider: the login page's `redirect` query,
// kept in session storage across the trip (the page is left and loaded again).
const storageKey = 'flotilla.socialSignIn.returnPath';

const isLocalPath = (value: string | null): value is string =>
  value !== null && value.startsWith('/') && !value.startsWith('//');

export const keepReturnPath = (search: string): void => {
  const redirect = new URLSearchParams(search).get('redirect');
  try {
    if (isLocalPath(redirect)) window.sessionStorage.setItem(storageKey, redirect);
    else window.sessionStorage.removeItem(storageKey);
  } catch {
    // Storage refused (private mode): the sign-in still works, it lands on the default page.
  }
};

// The kept path, once (it is removed as it is read).
export const takeReturnPath = (): string | null => {
  try {
    const value = window.sessionStorage.getItem(storageKey);
    window.sessionStorage.removeItem(storageKey);
    return isLocalPath(value) ? value : null;
  } catch {
    return null;
  }
};
