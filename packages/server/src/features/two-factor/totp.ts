import { Secret, TOTP } from 'otpauth';
import { twoFactorCodeLength } from '@flotilla/shared/auth/two-factor';

// RFC 6238 with the parameters every authenticator app assumes: SHA-1, 6 digits, 30 s steps.
const periodSeconds = 30;
// Codes of the previous and next step are accepted too, for clocks a little apart.
const windowSteps = 1;
const secretBytes = 20;

const totpOf = (secret: string): TOTP =>
  new TOTP({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: twoFactorCodeLength,
    period: periodSeconds,
  });

// A new random secret, base32 as authenticator apps and balena-sdk's getSetupKey expect it.
export const newTotpSecret = (): string => new Secret({ size: secretBytes }).base32;

// The time step of `now`.
export const totpStepAt = (now: Date): number =>
  TOTP.counter({ period: periodSeconds, timestamp: now.getTime() });

// The code an authenticator shows at `now` (tests and the console's tests compute codes with it).
export const totpCodeAt = (secret: string, now: Date): string =>
  totpOf(secret).generate({ timestamp: now.getTime() });

// The time step the code belongs to when it is valid at `now` (within one step either way) and
// later than `lastStep`, the step of the last code accepted; otherwise null. Accepting only later
// steps makes every code single-use.
export const acceptedTotpStep = (
  secret: string,
  code: string,
  now: Date,
  lastStep: number | null,
): number | null => {
  if (!/^\d+$/.test(code) || code.length !== twoFactorCodeLength) return null;
  const delta = totpOf(secret).validate({
    token: code,
    timestamp: now.getTime(),
    window: windowSteps,
  });
  if (delta === null) return null;
  const step = totpStepAt(now) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
};
