import type { Queryable } from '../../infra/db/database.js';
import { ApiError } from '../../infra/errors/api-error.js';

const windowMs = 60_000;
const maxKeyLength = 255;

export const rateLimitMessage = 'Too Many Requests. Try again later';

// Attempts are counted per username as typed, case-insensitively, whether or not it exists, so
// the limiter's answers reveal nothing about which accounts exist.
export const usernameKey = (username: string): string =>
  username.trim().toLowerCase().slice(0, maxKeyLength);

export type LoginRateLimiter = {
  // Throws 429 with Retry-After while `limit` failures happened within the last minute.
  assertAllowed(username: string, now: Date): Promise<void>;
  recordFailure(username: string, now: Date): Promise<void>;
  recordSuccess(username: string): Promise<void>;
};

export const createLoginRateLimiter = (
  db: Queryable,
  limitPerMinute: number,
): LoginRateLimiter => ({
  async assertAllowed(username, now) {
    // The limit-th most recent failure inside the window: once it ages out, attempts resume.
    const { rows } = await db.query<{ attempted_at: Date }>(
      `SELECT "attempted_at" FROM "login_attempt"
        WHERE "username_key" = $1 AND "attempted_at" > $2
        ORDER BY "attempted_at" DESC
        OFFSET $3 LIMIT 1`,
      [usernameKey(username), new Date(now.getTime() - windowMs), limitPerMinute - 1],
    );
    const blocking = rows[0];
    if (!blocking) return;
    const waitMs = blocking.attempted_at.getTime() + windowMs - now.getTime();
    throw new ApiError('rate_limited', rateLimitMessage, {
      retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
    });
  },
  async recordFailure(username, now) {
    await db.query(
      `WITH expired AS (DELETE FROM "login_attempt" WHERE "attempted_at" <= $3)
       INSERT INTO "login_attempt" ("username_key", "attempted_at") VALUES ($1, $2)`,
      [usernameKey(username), now, new Date(now.getTime() - windowMs)],
    );
  },
  async recordSuccess(username) {
    await db.query('DELETE FROM "login_attempt" WHERE "username_key" = $1', [
      usernameKey(username),
    ]);
  },
});
