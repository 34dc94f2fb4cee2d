// Creating API keys is disabled for SAML accounts. Such a user's access is
// governed by their identity provider (an organization ends it there); a user key would outlive
// that. The server refuses with this text and the console shows it beside the disabled button.
export const samlApiKeyRefusal = 'API keys cannot be created for accounts that sign in with SAML';

// A SAML account signs in only through its identity provider (the organization decides who
// may): its password, if it has one from before the link, no longer opens a session.
export const samlPasswordLoginRefusal =
  'This account signs in through its identity provider: use Enterprise login (SSO)';
