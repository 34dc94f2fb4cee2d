import type { Database } from '../../infra/db/database.js';

// The open streams of every process, counted in PostgreSQL so the per-user limit holds across
// nodes: one lease row per stream, renewed while it lives, deleted when it closes, and expired
// after `leaseMs` without renewal (a process that died, or lost its database, stops renewing).
export type StreamLeases = {
  // A lease for one more stream of the user, or undefined when they hold `max` already.
  acquire(userId: number, max: number): Promise<string | undefined>;
  // False when the lease is gone (it expired while this process could not renew it).
  renew(lease: string): Promise<boolean>;
  release(lease: string): Promise<void>;
  releaseAll(leases: readonly string[]): Promise<void>;
};

export const createStreamLeases = (deps: {
  db: Database;
  now: () => Date;
  leaseMs: number;
}): StreamLeases => {
  const expiry = (): Date => new Date(deps.now().getTime() + deps.leaseMs);
  return {
    acquire: (userId, max) =>
      deps.db.transaction(async (tx) => {
        // One user's acquisitions one at a time, whichever process takes them: the count and the
        // insert cannot interleave with another's.
        await tx.query(`SELECT pg_advisory_xact_lock(hashtext('flotilla_event_stream'), $1)`, [
          userId,
        ]);
        await tx.query(`DELETE FROM "event_stream_lease" WHERE "expires_at" <= $1`, [deps.now()]);
        const { rows } = await tx.query<{ open: number }>(
          `SELECT count(*)::int AS "open" FROM "event_stream_lease" WHERE "user" = $1`,
          [userId],
        );
        if ((rows[0]?.open ?? 0) >= max) return undefined;
        const inserted = await tx.query<{ id: string }>(
          `INSERT INTO "event_stream_lease" ("user", "expires_at") VALUES ($1, $2)
           RETURNING "id"::text AS "id"`,
          [userId, expiry()],
        );
        return inserted.rows[0]?.id;
      }),
    renew: async (lease) => {
      const { rowCount } = await deps.db.query(
        `UPDATE "event_stream_lease" SET "expires_at" = $2 WHERE "id" = $1`,
        [lease, expiry()],
      );
      return rowCount > 0;
    },
    release: async (lease) => {
      await deps.db.query(`DELETE FROM "event_stream_lease" WHERE "id" = $1`, [lease]);
    },
    releaseAll: async (leases) => {
      if (leases.length === 0) return;
      await deps.db.query(`DELETE FROM "event_stream_lease" WHERE "id" = ANY($1::bigint[])`, [
        leases,
      ]);
    },
  };
};
