import { hashPassword, type ScryptParams } from '../infra/auth/passwords.js';

// The users tests put straight into the database get a cheap hash (about a millisecond, not a
// fifth of a second on a busy machine). A password is checked with the cost written in its
// hash, so their sign-ins are cheap too. Passwords set through the routes (sign-up, reset,
// change) still get the production cost, which passwords.test.ts holds.
const cheap: ScryptParams = { N: 1024, r: 1, p: 1 };

export const hashTestPassword = (password: string): Promise<string> =>
  hashPassword(password, cheap);
