// Where the user was when they left to confirm their identity at GitHub, Google or their
// identity provider (the re-authentication dialog), kept in session storage across the trip; the
// callback pages of social sign-in and SAML bring them back there.
const storageKey = 'flotilla.reauthentication.returnPath';

const isLocalPath = (value: string | null): value is string =>
  value !== null && value.startsWith('/') && !value.startsWith('//');

export const keepReauthReturnPath = (path: string): void => {
  try {
    if (isLocalPath(path)) window.sessionStorage.setItem(storageKey, path);
  } catch {
    // Storage refused (private mode): the user lands on the home page instead.
  }
};

// The kept path, once (it is removed as it is read); the home page without one.
export const takeReauthReturnPath = (): string => {
  try {
    const value = window.sessionStorage.getItem(storageKey);
    window.sessionStorage.removeItem(storageKey);
    return isLocalPath(value) ? value : '/';
  } catch {
    return '/';
  }
};

// The toast the user sees back on the page.
export const reauthConfirmedMessage = 'Identity confirmed: you can now try the action again';
