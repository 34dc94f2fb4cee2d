// The re-authentication window:
// actions that hand out lasting access (creating a user API key, setting up two-factor or
// regenerating its recovery codes) need a password given within this window. It is counted from
// the session's authTime, which login, a password change and `POST /user/v1/refresh-token
// {password}` renew. 20 minutes: the token refresh time after authTime, which
// is also balena's window for these actions.
export const reauthenticationWindowMs = 20 * 60 * 1000;

// The 401 text of a refused action: the console recognises it and asks for the password.
export const freshAuthenticationRequiredMessage =
  'Fresh authentication required: confirm your password and try again';

// Whether an error text is the refusal above.
export const isFreshAuthenticationRequired = (text: string | undefined): boolean =>
  text?.includes(freshAuthenticationRequiredMessage) === true;
