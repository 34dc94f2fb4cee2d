import { z } from 'zod';

const limit = (fallback: number) => z.coerce.number().int().min(1).max(1_000_000).default(fallback);

// How often people may try the account routes (docs/API-LIMITS.md), spread into the server's one
// configuration schema.
export const rateLimitEnv = {
  FLOTILLA_LOGIN_RATE_LIMIT: limit(10),
  FLOTILLA_LOGIN_ACCOUNT_RATE_LIMIT: limit(100),
  FLOTILLA_LOGIN_ADDRESS_RATE_LIMIT: limit(30),
  FLOTILLA_SIGNUP_RATE_LIMIT: limit(20),
  FLOTILLA_PASSWORD_RESET_RATE_LIMIT: limit(10),
  FLOTILLA_PASSWORD_RESET_ACCOUNT_RATE_LIMIT: limit(5),
  FLOTILLA_INVITATION_RATE_LIMIT: limit(30),
  FLOTILLA_EMAIL_CHANGE_RATE_LIMIT: limit(5),
};

export type RateLimitConfig = {
  // Failed logins per minute per account from one client address (docs/API-LIMITS.md).
  loginRateLimitPerMinute: number;
  // Failed logins per minute per account from all addresses together.
  loginAccountRateLimitPerMinute: number;
  // Failed logins per minute from one client address, whatever the account.
  loginAddressRateLimitPerMinute: number;
  // Sign-up requests per hour from one client address.
  signupRateLimitPerHour: number;
  // Password reset requests per hour from one client address, and for one e-mail address.
  passwordResetRateLimitPerHour: number;
  passwordResetAccountRateLimitPerHour: number;
  // Invitations one user may send per hour (each is a mail to an address they typed).
  invitationRateLimitPerHour: number;
  // E-mail address changes one user may make per hour (each mails the new address a link).
  emailChangeRateLimitPerHour: number;
};

type RateLimitValues = { [Key in keyof typeof rateLimitEnv]: number };

export const rateLimitConfigOf = (values: RateLimitValues): RateLimitConfig => ({
  loginRateLimitPerMinute: values.FLOTILLA_LOGIN_RATE_LIMIT,
  loginAccountRateLimitPerMinute: values.FLOTILLA_LOGIN_ACCOUNT_RATE_LIMIT,
  loginAddressRateLimitPerMinute: values.FLOTILLA_LOGIN_ADDRESS_RATE_LIMIT,
  signupRateLimitPerHour: values.FLOTILLA_SIGNUP_RATE_LIMIT,
  passwordResetRateLimitPerHour: values.FLOTILLA_PASSWORD_RESET_RATE_LIMIT,
  passwordResetAccountRateLimitPerHour: values.FLOTILLA_PASSWORD_RESET_ACCOUNT_RATE_LIMIT,
  invitationRateLimitPerHour: values.FLOTILLA_INVITATION_RATE_LIMIT,
  emailChangeRateLimitPerHour: values.FLOTILLA_EMAIL_CHANGE_RATE_LIMIT,
});
