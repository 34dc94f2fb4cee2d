// Messages of SAML sign-in, shared by the server's answers and the console's pages.
export const samlSignInMessages = {
  unknownIdentifier: 'Unknown SSO identifier',
  invalidCode: 'This sign-in link is invalid or has expired: sign in through your provider again',
  mergeRequiresLogin: 'Log in to the existing account before linking it to your identity provider',
  mergeEmailMismatch:
    'The account you are logged in to does not have the e-mail address your identity provider sent',
  missingCode: 'The sign-in did not complete: the link carries no code',
  missingMergeTarget: 'The sign-in did not complete: the link names no account to link',
  consentRequired: 'Tick both boxes to link the accounts',
  reauthNoAccount:
    'Your account did not come from an identity provider: confirm your identity another way',
  reauthNotLinked:
    'This identity is not linked to a Flotilla account: sign in to the identity provider as yourself',
  reauthWrongAccount:
    'Your identity provider confirmed another account than the one signed in here: sign in to it as yourself',
} as const;

// The RelayState of a re-authentication: the assertion consumer hands its code to the console's
// re-authentication page instead of signing anyone in.
export const samlReauthRelayState = 'flotilla-reauth';
