import { safeRedirect } from '../../api/session/safe-redirect.js';

// Where the user was going before leaving for their identity provider: kept in session storage
// across the round trip (the provider's answer carries no query of ours).
const key = 'flotilla.saml.returnUrl';

export const keepReturnUrl = (redirect: string | null): void => {
  const safe = safeRedirect(redirect);
  if (safe === null) sessionStorage.removeItem(key);
  else sessionStorage.setItem(key, safe);
};

export const takeReturnUrl = (): string => {
  const stored = safeRedirect(sessionStorage.getItem(key));
  sessionStorage.removeItem(key);
  return stored ?? '/';
};
