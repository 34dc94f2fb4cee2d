import type { RateLimiter, RateLimitTicket } from '../../infra/rate-limit/rate-limiter.js';

const hourMs = 3_600_000;

export type AccountRequest = {
  // Sign-up now; the password-reset request is to use it too.
  kind: 'signup' | 'password-reset';
  // clientAddressKey(request.ip)
  clientAddress: string;
  // Requests per hour from one client address.
  limitPerHour: number;
  // The account the request is about (a password reset's e-mail, lower-cased), with its own
  // hourly limit, so that many addresses together cannot flood one inbox either.
  account?: { key: string; limitPerHour: number };
};

// Requests anyone may send without a session that create accounts or send mail. Each is counted
// whether it succeeds or not (a refused duplicate e-mail too: that answer tells whether an
// account exists); past a limit the answer is 429 with Retry-After.
export const throttleAccountRequest = (
  limiter: RateLimiter,
  request: AccountRequest,
): Promise<RateLimitTicket> =>
  limiter.take([
    {
      key: `${request.kind}:address:${request.clientAddress}`,
      limit: request.limitPerHour,
      windowMs: hourMs,
    },
    ...(request.account
      ? [
          {
            key: `${request.kind}:account:${request.account.key}`,
            limit: request.account.limitPerHour,
            windowMs: hourMs,
          },
        ]
      : []),
  ]);
