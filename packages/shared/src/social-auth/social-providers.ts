// The social sign-in providers an operator may configure (client id and secret); GET /config
// lists the configured ones as `supportedSocialProviders`, the console shows a button for each.
export const socialProviders = ['github', 'google'] as const;
export type SocialProvider = (typeof socialProviders)[number];

export const isSocialProvider = (value: string): value is SocialProvider =>
  socialProviders.some((provider) => provider === value);

export const socialProviderLabels: Record<SocialProvider, string> = {
  github: 'GitHub',
  google: 'Google',
};

// What POST /auth/{provider}/exchange answers once the provider sent the browser back.
export type SocialExchangeAnswer =
  // Signed in (or signed up): a session token, pending its second factor when the account has one.
  | { outcome: 'signed-in'; token: string }
  // An account already has this verified e-mail: it must prove itself (its password) before the
  // provider's account is linked to it; linkToken names the pending link for a few minutes.
  | { outcome: 'link-required'; linkToken: string; email: string; hasPassword: boolean }
  // Started from Preferences by a signed-in user: the provider's account is now linked to theirs.
  | { outcome: 'linked' }
  // Started from the re-authentication dialog by a signed-in user: the same session's new token,
  // freshly authenticated (its authTime is now), as a password given again would make it.
  | { outcome: 'reauthenticated'; token: string };

// Minutes a started sign-in and a pending link stay valid.
export const socialFlowMinutes = 10;

// The server's answers and the console's words for them (one text, so both say the same).
export const socialAuthMessages = {
  notConfigured: (label: string) => `Sign-in with ${label} is not configured on this installation`,
  flowExpired:
    'This sign-in was not started in this browser or has expired: start it again from the login page',
  stateMismatch:
    'This sign-in answer does not belong to the sign-in started in this browser: start it again',
  providerRefused: (label: string, reason: string) => `${label} did not sign you in: ${reason}`,
  providerUnavailable: (label: string) =>
    `${label} could not be reached to complete the sign-in: try again shortly`,
  unverifiedEmail: (label: string) =>
    `Your ${label} account has no verified e-mail address: verify it at ${label} first`,
  linkedElsewhere: (label: string) =>
    `This ${label} account is already linked to another Flotilla account`,
  alreadyLinkedProvider: (label: string) =>
    `Your account is already linked to a ${label} account: unlink it first`,
  reauthNotLinked: (label: string) =>
    `Your account is not linked to a ${label} account: confirm your identity another way`,
  reauthWrongAccount: (label: string) =>
    `This ${label} account is not the one linked to your Flotilla account: continue with the linked one`,
  reauthWrongSession:
    'This confirmation was started by another session: sign in and start it again',
  linkExpired: 'This link request has expired: sign in with the provider again',
  lastWayIn:
    'This is the only way to sign in to your account: set a password (or link another account) before unlinking it',
} as const;
