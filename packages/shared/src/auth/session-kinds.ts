// The kinds of credential a request can carry, and which sensitive things each may do. The
// server's checks read this table (server infra/auth/session-rules.ts), and the
// "Session kinds" table of docs/ACCOUNTS.md must say the same (server infra/auth/session-kinds-readme.test.ts).
export const sessionKinds = [
  'password-session',
  'two-factor-pending',
  'oauth-token',
  'login-as',
  'user-api-key',
  'device-key',
  'provisioning-key',
] as const;
export type SessionKind = (typeof sessionKinds)[number];

export const sessionCapabilities = [
  // Counts as a password given recently (within reauthenticationWindowMs of authTime).
  'fresh-authentication',
  // Create, rename or revoke API keys (user keys also need fresh authentication).
  'manage-api-keys',
  // Add or remove SSH public keys: lasting access to the user's devices' terminals.
  'manage-ssh-keys',
  // Set up, enable or disable two-factor authentication, or regenerate recovery codes.
  'manage-two-factor',
  'change-password',
  'change-email',
  'delete-account',
  // Consent to an OAuth application (POST /oauth/authorize).
  'authorize-oauth-apps',
  // Sign in as another user (platform administrators only).
  'log-in-as',
  // Sign the account out everywhere else (POST /logout-others).
  'end-other-sessions',
  // Link a GitHub or Google account to sign in with (POST /auth/{provider}/link).
  'link-accounts',
  // Get a new token for the same session (POST /user/v1/refresh-token).
  'refresh',
] as const;
export type SessionCapability = (typeof sessionCapabilities)[number];

export const sessionKindLabels: Record<SessionKind, string> = {
  'password-session': 'Password session',
  'two-factor-pending': 'Two-factor pending',
  'oauth-token': 'OAuth token',
  'login-as': 'Login-as session',
  'user-api-key': 'User API key',
  'device-key': 'Device key',
  'provisioning-key': 'Provisioning key',
};

// The column headings of the "Session kinds" table in docs/ACCOUNTS.md.
export const sessionCapabilityLabels: Record<SessionCapability, string> = {
  'fresh-authentication': 'Fresh authentication',
  'manage-api-keys': 'Manage API keys',
  'manage-ssh-keys': 'Manage SSH keys',
  'manage-two-factor': 'Manage two-factor',
  'change-password': 'Change password',
  'change-email': 'Change e-mail',
  'delete-account': 'Delete account',
  'authorize-oauth-apps': 'Authorize OAuth apps',
  'log-in-as': 'Log in as',
  'end-other-sessions': 'End other sessions',
  'link-accounts': 'Link accounts',
  refresh: 'Refresh',
};

// Only a person who gave their password holds a lasting power over the account. An OAuth token
// is a third party's, a login-as session an administrator's: neither may take the account over
// (new API or SSH keys, a second factor, a password or address of their own) nor end it, nor
// sign the person out elsewhere. A pending session
// may only complete its second factor (the routes allowing it say so); keys are not sessions.
export const sessionKindRules: Record<SessionKind, readonly SessionCapability[]> = {
  'password-session': sessionCapabilities,
  'two-factor-pending': ['refresh'],
  'oauth-token': ['refresh'],
  'login-as': ['refresh'],
  'user-api-key': ['manage-api-keys', 'manage-ssh-keys'],
  'device-key': [],
  'provisioning-key': [],
};

export const sessionMay = (kind: SessionKind, capability: SessionCapability): boolean =>
  sessionKindRules[kind].includes(capability);
