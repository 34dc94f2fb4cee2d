import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { createDevice, createFleet, createOrganization } from '../../test-support/fixtures.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { reassertSessions, sweepDeadNodes, touchNode } from './session-store.js';

// A node whose heartbeat was held up past the stale time is swept by the others while its links
// stay open: its next heartbeat finds its row gone and writes its sessions again.
describe('a node taken for dead while its links are open', () => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  const sessions = async (): Promise<{ device: number; node_id: string }[]> =>
    (
      await db.query<{ device: number; node_id: string }>(
        'SELECT "device", "node_id" FROM "cloudlink_session" ORDER BY "device"',
      )
    ).rows;

  it('learns from its heartbeat that it was swept and restores its sessions', async () => {
    const org = await createOrganization(db, 'reassert');
    const fleet = await createFleet(db, org, 'reassert');
    const mine = await createDevice(db, fleet.id, 'mine');
    const moved = await createDevice(db, fleet.id, 'moved');
    const now = new Date();
    expect(await touchNode(db, 'node-a')).toBe(true);
    expect(await touchNode(db, 'node-a')).toBe(false);
    await db.query(
      `INSERT INTO "cloudlink_session" ("device", "node_id", "connection_id", "connected_at")
       VALUES ($1, 'node-a', 'c1', $3), ($2, 'node-a', 'c2', $3)`,
      [mine.id, moved.id, now],
    );
    await db.query(`UPDATE "device" SET "is_connected_to_vpn" = true WHERE "id" IN ($1, $2)`, [
      mine.id,
      moved.id,
    ]);

    // Another node's sweep with node-a's heartbeat overdue.
    await db.query(`UPDATE "cloudlink_node" SET "seen_at" = now() - interval '1 hour'`);
    expect(await sweepDeadNodes(db, 30_000, now)).toBe(2);
    expect(await sessions()).toEqual([]);
    // Meanwhile one device reconnected to node-b.
    await db.query(
      `INSERT INTO "cloudlink_session" ("device", "node_id", "connection_id", "connected_at")
       VALUES ($1, 'node-b', 'c3', $2)`,
      [moved.id, now],
    );

    expect(await touchNode(db, 'node-a')).toBe(true);
    const held = [
      { deviceId: mine.id, connectionId: 'c1' },
      { deviceId: moved.id, connectionId: 'c2' },
    ];
    expect(await reassertSessions(db, 'node-a', held, now)).toBe(1);
    expect(await sessions()).toEqual([
      { device: mine.id, node_id: 'node-a' },
      { device: moved.id, node_id: 'node-b' },
    ]);
    const connected = await db.query<{ is_connected_to_vpn: boolean }>(
      'SELECT "is_connected_to_vpn" FROM "device" WHERE "id" = $1',
      [mine.id],
    );
    expect(connected.rows[0]?.is_connected_to_vpn).toBe(true);
  });
});
