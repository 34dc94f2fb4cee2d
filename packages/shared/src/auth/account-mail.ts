// Password reset and e-mail verification rules shared by the server and the console,
// so both say the same lifetimes and texts.

// A password reset link works once, for this long after it was asked for.
export const passwordResetLifetimeMinutes = 60;
// An e-mail verification link works once, for this long after it was sent, and not after a
// password change.
export const emailVerificationLifetimeHours = 24;

// The reset codes (3 expired, 4 invalid), with the texts the server answers
// and the console shows.
export const passwordResetErrors = {
  expired: { code: 3, message: 'This password reset link has expired. Ask for a new one.' },
  invalid: {
    code: 4,
    message:
      'This password reset link is not valid: it may have been used already. Ask for a new one.',
  },
} as const;

// What an e-mail verification link that cannot be used answers.
export const invalidVerificationLinkMessage = 'Invalid verification link';
// A verification link older than emailVerificationLifetimeHours.
export const expiredVerificationLinkMessage =
  'This verification link has expired. Ask for a new one.';
// PATCH /user/email with an address another account holds (compared ignoring case).
export const emailTakenMessage = 'This e-mail address is already in use by another account';

// Console paths the mails link to.
export const passwordResetPath = (code: string): string =>
  `/user/reset-password/${encodeURIComponent(code)}`;
export const emailVerificationPath = (token: string, email: string): string =>
  `/user/verify-email/${encodeURIComponent(token)}/${encodeURIComponent(email)}`;
