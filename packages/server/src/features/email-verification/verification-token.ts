import { createHmac, timingSafeEqual } from 'node:crypto';
import { emailVerificationLifetimeDays } from '@flotilla/shared/auth/account-mail';

// E-mail verification tokens: `<user id>.<expiry, s>.<base64url HMAC-SHA256>` over the user, the
// address (lower-cased) and the expiry, with a key derived from the session signing secret under
// its own label. The address is not in the token (the link carries it, seed 000 section 2.1), but
// it is signed: a token proves one address of one user, and a changed address needs a new one.
export type VerificationSigner = {
  sign(userId: number, email: string, now: Date): { token: string; expiresAt: Date };
  // The user the token was signed for with this address, 'expired', or 'invalid'.
  check(token: string, email: string, now: Date): { userId: number } | 'expired' | 'invalid';
};

const tokenPattern = /^(\d{1,10})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export const createVerificationSigner = (secret: Uint8Array): VerificationSigner => {
  const key = createHmac('sha256', secret).update('flotilla e-mail verification v1').digest();
  const macOf = (userId: number, email: string, exp: number): Buffer =>
    createHmac('sha256', key).update(`${userId}\n${email.toLowerCase()}\n${exp}`).digest();
  return {
    sign(userId, email, now) {
      const exp = Math.floor(now.getTime() / 1000) + emailVerificationLifetimeDays * 24 * 3600;
      return {
        token: `${userId}.${exp}.${macOf(userId, email, exp).toString('base64url')}`,
        expiresAt: new Date(exp * 1000),
      };
    },
    check(token, email, now) {
      const match = tokenPattern.exec(token);
      if (!match?.[1] || !match[2] || !match[3]) return 'invalid';
      const userId = Number(match[1]);
      const exp = Number(match[2]);
      const given = Buffer.from(match[3], 'base64url');
      const expected = macOf(userId, email, exp);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      if (exp * 1000 <= now.getTime()) return 'expired';
      return { userId };
    },
  };
};
