import { createHash, randomUUID } from 'node:crypto';
import type { Database } from '../db/database.js';
import { ApiError } from '../errors/api-error.js';

// The body of every 429.
export const rateLimitMessage = 'Too Many Requests. Try again later';

export type RateLimitBucket = {
  // What is counted, e.g. "login:account:42" or "signup:address:203.0.113.7".
  key: string;
  // Requests counted within the sliding window before the bucket refuses more.
  limit: number;
  windowMs: number;
};

// One counted request: the same ticket in each of its buckets, so a refund removes it from all.
export type RateLimitTicket = { readonly id: string };

export type RateLimiter = {
  // Counts one request in every bucket, atomically: either all have room and the request is
  // counted in all, or it is counted in none and a 429 with Retry-After (the longest wait) is
  // thrown. A refused request is not counted, so a flood cannot push the window forward.
  take(buckets: readonly RateLimitBucket[]): Promise<RateLimitTicket>;
  // Whether a take would be refused now, counting nothing and taking no lock: the 429 it would
  // throw, or nothing. For routes that count only failures (credential-throttle.ts).
  check(buckets: readonly RateLimitBucket[]): Promise<void>;
  // Uncounts a request (a login that turned out right).
  refund(ticket: RateLimitTicket): Promise<void>;
  // Empties one bucket.
  clear(key: string): Promise<void>;
};

const pruneBatch = 1000;

// Keys are stored hashed: a key may hold what someone typed into a login form.
const digestOf = (key: string): Buffer => createHash('sha256').update(key).digest();

type PreparedBucket = RateLimitBucket & { bucket: string; lock: string };

const prepare = (bucket: RateLimitBucket): PreparedBucket => {
  const digest = digestOf(bucket.key);
  return { ...bucket, bucket: digest.toString('hex'), lock: digest.readBigInt64BE(0).toString() };
};

type Queryable = Pick<Database, 'query'>;

// How long until every bucket has room (0: they have now).
const waitMsOf = async (
  db: Queryable,
  prepared: readonly PreparedBucket[],
  at: Date,
): Promise<number> => {
  let waitMs = 0;
  for (const bucket of prepared) {
    // The limit-th most recent hit in the window: the bucket has room once it ages out.
    const { rows } = await db.query<{ hit_at: Date }>(
      `SELECT "hit_at" FROM "rate_limit_hit"
        WHERE "bucket" = $1 AND "hit_at" > $2
        ORDER BY "hit_at" DESC OFFSET $3 LIMIT 1`,
      [bucket.bucket, new Date(at.getTime() - bucket.windowMs), bucket.limit - 1],
    );
    const blocking = rows[0];
    if (blocking) {
      waitMs = Math.max(waitMs, blocking.hit_at.getTime() + bucket.windowMs - at.getTime());
    }
  }
  return waitMs;
};

const throwIfFull = (waitMs: number): void => {
  if (waitMs > 0) {
    throw new ApiError('rate_limited', rateLimitMessage, {
      retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
    });
  }
};

// Rate limits kept in PostgreSQL (table rate_limit_hit), so they hold across every server
// process. Each take locks its buckets (transaction-scoped advisory locks, always in the same
// order, so takes sharing buckets queue instead of deadlocking), counts the hits inside each
// window and records the new one: concurrent requests can never all pass one check.
export const createRateLimiter = (db: Database, now: () => Date): RateLimiter => ({
  async take(buckets) {
    const prepared = buckets.map(prepare);
    const ticket = randomUUID();
    const at = now();
    await db.transaction(async (tx) => {
      for (const lock of [...new Set(prepared.map((bucket) => bucket.lock))].sort()) {
        await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [lock]);
      }
      throwIfFull(await waitMsOf(tx, prepared, at));
      await tx.query(
        `INSERT INTO "rate_limit_hit" ("bucket", "ticket", "hit_at", "expires_at")
         SELECT b."bucket", $2, $3, $3::timestamptz + b."window_ms" * interval '1 millisecond'
           FROM unnest($1::text[], $4::bigint[]) AS b("bucket", "window_ms")`,
        [prepared.map((bucket) => bucket.bucket), ticket, at, prepared.map((b) => b.windowMs)],
      );
    });
    // Drops hits whose window has passed; rows another take is already deleting are skipped,
    // so concurrent prunes never wait on each other.
    await db.query(
      `DELETE FROM "rate_limit_hit" WHERE "id" IN (
         SELECT "id" FROM "rate_limit_hit" WHERE "expires_at" <= $1
          LIMIT ${pruneBatch} FOR UPDATE SKIP LOCKED)`,
      [at],
    );
    return { id: ticket };
  },
  async check(buckets) {
    throwIfFull(await waitMsOf(db, buckets.map(prepare), now()));
  },
  async refund(ticket) {
    await db.query('DELETE FROM "rate_limit_hit" WHERE "ticket" = $1', [ticket.id]);
  },
  async clear(key) {
    await db.query('DELETE FROM "rate_limit_hit" WHERE "bucket" = $1', [
      digestOf(key).toString('hex'),
    ]);
  },
});
