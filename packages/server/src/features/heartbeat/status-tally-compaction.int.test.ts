import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { waitFor } from '../../test-support/wait-for.js';
import type { Schedule } from '../../infra/scheduling/periodic-task.js';
import {
  registerStatusTallyCompaction,
  statusTallyCompactionIntervalMs,
} from './status-tally-compaction.js';

// The server merges the status tally's rows of devices offline for good when it is ready and then
// on its interval (the counts themselves: device-status-count.int.test.ts).

describe('status tally compaction', () => {
  let db: Database;
  let fleet = 0;

  // Tally rows of contacted devices in the fleet that are not the merged offline row.
  const unmerged = async (): Promise<number> => {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS "n" FROM "device_status_tally"
        WHERE "application" = $1 AND "base" <> 'unseen' AND "bin" <> '-infinity'`,
      [fleet],
    );
    return rows[0]?.n ?? -1;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    fleet = (await fx.createFleet(db, await fx.createOrganization(db, 'Compact'), 'fleet')).id;
  });

  afterAll(async () => {
    await db.close();
  });

  it('merges offline rows when ready and on every interval', async () => {
    const scheduled: { task: () => void; ms: number }[] = [];
    const schedule: Schedule = (task, ms) => {
      const entry = { task, ms };
      scheduled.push(entry);
      return () => scheduled.splice(scheduled.indexOf(entry), 1);
    };
    // Devices last seen days apart: one tally row each until merged.
    const goneFor = async (days: number[]): Promise<void> => {
      for (const day of days) {
        const device = await fx.createDevice(db, fleet, `gone-${day}`);
        await db.query(
          `UPDATE "device" SET "last_contact_at" = now() - $2 * interval '1 day' WHERE "id" = $1`,
          [device.id, day],
        );
      }
    };
    await goneFor([2, 3, 4]);
    expect(await unmerged()).toBe(3);
    const ctx = createTestContext(db);
    const app = await createTestApp(ctx, (instance, context) =>
      registerStatusTallyCompaction(instance, context, { schedule }),
    );
    try {
      expect(scheduled.map((entry) => entry.ms)).toEqual([0]);
      const runs = async (): Promise<void> => {
        scheduled.shift()?.task();
        // The next run is scheduled once the task's compaction is done.
        await waitFor('the next compaction to be scheduled', () => scheduled.length > 0);
      };
      await runs();
      expect(await unmerged()).toBe(0);
      expect(scheduled.map((entry) => entry.ms)).toEqual([statusTallyCompactionIntervalMs]);
      await goneFor([5, 6]);
      expect(await unmerged()).toBe(2);
      await runs();
      expect(await unmerged()).toBe(0);
    } finally {
      await app.close();
    }
    expect(scheduled).toEqual([]);
  });
});
