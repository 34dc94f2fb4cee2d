import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { emailVerificationLifetimeHours } from '@flotilla/shared/auth/account-mail';

// What a verification link depends on besides its user and address: the password (a change ends
// every link sent before) and what there is to verify (the own address's flag, the address waiting
// to replace it). Using a link changes the latter, so a link works once.
export type VerificationState = {
  password_hash: string | null;
  is_verified: boolean;
  pending_email: string | null;
};

// The columns of "user" a VerificationState is read from.
export const verificationStateColumns = '"password_hash", "is_verified", "pending_email"';

const stampOf = (state: VerificationState): string =>
  createHash('sha256')
    .update(
      `${state.password_hash ?? ''}\n${String(state.is_verified)}\n${state.pending_email?.toLowerCase() ?? ''}`,
    )
    .digest('base64url');

// E-mail verification tokens: `<user id>.<expiry, s>.<base64url HMAC-SHA256>` over the user, the
// address (lower-cased), the expiry and the account's verification state, with a key derived
// from the session signing secret under its own label. The address is not in the token (the link
// carries it, as balena's links do), but it is signed: a token proves one address of one user,
// and a changed address, password or verification needs a new one.
export type VerificationSigner = {
  sign(
    userId: number,
    email: string,
    state: VerificationState,
    now: Date,
  ): { token: string; expiresAt: Date };
  // The user a well-formed token names (its state is then read to check it), or undefined.
  userOf(token: string): number | undefined;
  // Whether the token was signed for this address and state and is still valid.
  check(
    token: string,
    email: string,
    state: VerificationState,
    now: Date,
  ): 'valid' | 'expired' | 'invalid';
};

const tokenPattern = /^(\d{1,10})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export const createVerificationSigner = (secret: Uint8Array): VerificationSigner => {
  const key = createHmac('sha256', secret).update('flotilla e-mail verification v2').digest();
  const macOf = (userId: number, email: string, state: VerificationState, exp: number): Buffer =>
    createHmac('sha256', key)
      .update(`${userId}\n${email.toLowerCase()}\n${exp}\n${stampOf(state)}`)
      .digest();
  return {
    sign(userId, email, state, now) {
      const exp = Math.floor(now.getTime() / 1000) + emailVerificationLifetimeHours * 3600;
      return {
        token: `${userId}.${exp}.${macOf(userId, email, state, exp).toString('base64url')}`,
        expiresAt: new Date(exp * 1000),
      };
    },
    userOf(token) {
      const userId = Number(tokenPattern.exec(token)?.[1]);
      return userId > 0 && userId <= 2_147_483_647 ? userId : undefined;
    },
    check(token, email, state, now) {
      const match = tokenPattern.exec(token);
      if (!match?.[1] || !match[2] || !match[3]) return 'invalid';
      const userId = Number(match[1]);
      const exp = Number(match[2]);
      const given = Buffer.from(match[3], 'base64url');
      const expected = macOf(userId, email, state, exp);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      if (exp * 1000 <= now.getTime()) return 'expired';
      return 'valid';
    },
  };
};
