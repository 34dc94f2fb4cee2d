// Two-factor authentication rules shared by the server and the console: the code lengths and
// the error texts, so both say the same thing.

// Authenticator codes are 6 digits; the console submits as soon as 6 characters are typed.
export const twoFactorCodeLength = 6;
// The console's QR code of the authenticator secret, in CSS pixels.
export const twoFactorQrSize = 210;
// How many recovery codes one generation gives.
export const recoveryCodeCount = 10;

// The two-factor error codes (1 required, 2 invalid), with the texts the
// server answers and the console shows.
export const twoFactorErrors = {
  required: { code: 1, message: 'A two-factor authentication code is required' },
  invalid: { code: 2, message: 'Invalid two-factor authentication code' },
} as const;

export type TwoFactorError = keyof typeof twoFactorErrors;

// The code as typed, without the spaces and dashes authenticator apps and recovery sheets show.
export const normalizeTwoFactorCode = (typed: string): string =>
  typed.replace(/[\s-]/g, '').toLowerCase();

// Why a typed authenticator code cannot be sent yet, or undefined when it has its 6 digits.
export const authenticatorCodeProblem = (typed: string): TwoFactorError | undefined => {
  const code = normalizeTwoFactorCode(typed);
  if (code === '') return 'required';
  return /^\d{6}$/.test(code) ? undefined : 'invalid';
};

// The otpauth:// URI an authenticator app reads from the QR code (Key Uri Format): issuer and
// account label, the base32 secret, and the RFC 6238 defaults spelled out.
export const otpauthUri = (issuer: string, account: string, secret: string): string => {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret,
    issuer,
    algorithm: 'SHA1',
    digits: String(twoFactorCodeLength),
    period: '30',
  });
  return `otpauth://totp/${label}?${query.toString()}`;
};
