import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../infra/db/database.js';
import { composeServer } from '../../server.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { waitFor } from '../../test-support/wait-for.js';

// A node's heartbeat does not queue behind its pool: with every pooled connection taken (devices
// booting by the thousand on a busy machine), the node still says it is alive, so the other nodes
// do not sweep its sessions.
describe('the cloudlink heartbeat with the pool saturated', () => {
  let db: Database;
  let nodeDb: Database;
  beforeAll(async () => {
    db = await createTestDatabase();
    // The waiting request below must outlast the test rather than fail as unavailable.
    nodeDb = openDatabase(db.url, { max: 3, connectTimeoutMs: 120_000 });
  });
  afterAll(async () => {
    await nodeDb.close();
    await db.close();
  });

  const seenAt = async (nodeId: string): Promise<number | undefined> =>
    (
      await db.query<{ seen: Date }>(
        'SELECT "seen_at" AS "seen" FROM "cloudlink_node" WHERE "node_id" = $1',
        [nodeId],
      )
    ).rows[0]?.seen.getTime();

  it('lands while every pooled connection is held and more are waiting', async () => {
    const ctx = createTestContext(nodeDb);
    const { app, cloudlink } = composeServer(ctx, {
      cloudlink: { nodeHeartbeatMs: 100, nodeStaleAfterMs: 60_000 },
    });
    await app.ready();
    // More requests than the pool has connections (its LISTEN connection holds one): whatever
    // another task releases goes to the first waiting request, one of these.
    const held: pg.PoolClient[] = [];
    const grabs = Array.from({ length: 3 }, () =>
      nodeDb.connect().then((client) => {
        held.push(client);
      }),
    );
    try {
      // Every connection but the LISTEN one is held here, none by a statement under way.
      await waitFor('the pool saturated', () => {
        const stats = nodeDb.poolStats();
        return held.length === 2 && stats.total === 3 && stats.waiting > 0;
      });
      const before = (await seenAt(cloudlink.nodeId)) ?? 0;
      await waitFor(
        'a heartbeat while the pool is saturated',
        async () => ((await seenAt(cloudlink.nodeId)) ?? 0) > before,
      );
      expect(nodeDb.poolStats().waiting).toBeGreaterThan(0);
    } finally {
      // The waiting request gets the first connection released, then lets it go too.
      for (const client of held.splice(0)) client.release();
      await Promise.all(grabs);
      for (const client of held.splice(0)) client.release();
      await app.close();
    }
  });
});
