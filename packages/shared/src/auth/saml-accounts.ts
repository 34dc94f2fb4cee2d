// Creating API keys is disabled for SAML accounts. Such a user's access is
// governed by their identity provider (an organization ends it there); a user key would outlive
// that. The server refuses with this text and the console shows it beside the disabled button.
export const samlApiKeyRefusal = 'API keys cannot be created for accounts that sign in with SAML';
