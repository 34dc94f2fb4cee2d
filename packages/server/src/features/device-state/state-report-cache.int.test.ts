import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import {
  type PollingProcess,
  startPollingProcesses,
} from '../../test-support/target-state-processes.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { waitFor } from '../../test-support/wait-for.js';
import { createApiKey } from '../api-keys/store-api-key.js';

// A device in steady state reports the same state again and again; the process that applied it
// last answers the repeats without the database (state-report-cache.ts). Whatever another process
// or another writer changes must still be applied by the next report, on every process.
describe('state reports across processes: repeats skip the database only while nothing changed', () => {
  let db: Database;
  let processes: PollingProcess[];
  let a: PollingProcess;
  let b: PollingProcess;
  let fleet: fx.FleetFixture;
  let device: fx.DeviceFixture;
  let deviceKey: string;
  let releaseId: number;
  let reports = 0;

  const settle = async (): Promise<void> => {
    for (const process of processes) await process.ctx.notifications.sync();
  };

  // The report a supervisor in steady state sends, with fresh metrics each time.
  const body = (fields: Record<string, unknown> = {}) => ({
    [device.uuid]: {
      status: 'Idle',
      os_version: 'balenaOS 5.3.21',
      ip_address: '192.168.1.2',
      cpu_usage: (reports += 1) % 100,
      apps: {
        [fleet.uuid]: {
          release_uuid: 'steady',
          releases: {
            steady: {
              update_status: 'done',
              services: { main: { image: 'x', status: 'Running' } },
            },
          },
        },
      },
      ...fields,
    },
  });

  // Sends a report to a process and returns how many statements it sent to the database.
  const report = async (process: PollingProcess, fields: Record<string, unknown> = {}) => {
    const before = process.reads();
    const response = await process.app.inject({
      method: 'PATCH',
      url: '/device/v3/state',
      headers: { authorization: `Bearer ${deviceKey}` },
      payload: body(fields),
    });
    expect(response.statusCode, `${process.name}: ${response.body}`).toBe(200);
    return process.reads() - before;
  };

  const stored = async () => {
    const { rows } = await db.query<{
      status: string | null;
      ip_address: string | null;
      update_status: string | null;
      is_running__release: number | null;
      installs: number;
    }>(
      `SELECT d."status", d."ip_address", d."update_status", d."is_running__release",
              (SELECT count(*)::int FROM "image_install" ii WHERE ii."device" = d."id") AS "installs"
         FROM "device" d WHERE d."id" = $1`,
      [device.id],
    );
    return rows[0];
  };

  // Reports on a process until it answers from memory (the report's own change is notified to it
  // too, so the first repeat after a change goes to the database once).
  const steady = async (process: PollingProcess): Promise<void> => {
    await report(process);
    await settle();
    await report(process);
    expect(await report(process), `${process.name} read the database`).toBe(0);
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    processes = await startPollingProcesses(db, ['A', 'B']);
    [a, b] = processes as [PollingProcess, PollingProcess];
    await waitFor('both processes to listen', () =>
      processes.every((process) => process.ctx.notifications.isLive()),
    );
    fleet = await fx.createFleet(db, await fx.createOrganization(db, 'Steady'), 'Steady');
    device = await fx.createDevice(db, fleet.id, 'steady-device');
    deviceKey = await createApiKey(db, device.actorId, { name: 'device' });
    releaseId = await fx.createRelease(db, fleet.id, 'steady');
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO "service" ("application", "service_name") VALUES ($1, 'main') RETURNING "id"`,
      [fleet.id],
    );
    const { rows: images } = await db.query<{ id: number }>(
      `INSERT INTO "image" ("is_a_build_of__service", "is_stored_at__image_location", "status")
       VALUES ($1, 'registry/main', 'success') RETURNING "id"`,
      [rows[0]?.id ?? null],
    );
    await db.query('INSERT INTO "release_image" ("image", "is_part_of__release") VALUES ($1, $2)', [
      images[0]?.id ?? null,
      releaseId,
    ]);
  });
  afterAll(async () => {
    for (const { app } of processes ?? []) await app.close();
    await db?.close();
  });

  it('applies a first report, then answers its repeats from memory on every process', async () => {
    expect(await report(a)).toBe(1);
    expect(await stored()).toEqual({
      status: 'Idle',
      ip_address: '192.168.1.2',
      update_status: 'done',
      is_running__release: releaseId,
      installs: 1,
    });
    await steady(a);
    await steady(b);
    // A different report is applied at once.
    expect(await report(a, { status: 'Updating' })).toBe(1);
    expect((await stored())?.status).toBe('Updating');
  });

  it('applies a repeat again after another process applied a change', async () => {
    await steady(a);
    await report(b, { ip_address: '10.0.0.9' });
    expect((await stored())?.ip_address).toBe('10.0.0.9');
    await settle();
    // The device is back to its old state, and says so to the first process.
    expect(await report(a)).toBe(1);
    expect((await stored())?.ip_address).toBe('192.168.1.2');
  });

  it('applies a repeat again after its device row changed by other means', async () => {
    await steady(a);
    await db.query(
      `UPDATE "device" SET "status" = 'Edited', "update_status" = NULL WHERE "id" = $1`,
      [device.id],
    );
    await settle();
    expect(await report(a)).toBe(1);
    expect(await stored()).toMatchObject({ status: 'Idle', update_status: 'done' });
  });

  it('applies a repeat again after its installs were deleted', async () => {
    await steady(a);
    await db.query('DELETE FROM "image_install" WHERE "device" = $1', [device.id]);
    await settle();
    expect(await report(a)).toBe(1);
    expect((await stored())?.installs).toBe(1);
  });

  it('applies a repeat again after the release it names changed in its fleet', async () => {
    await steady(a);
    // The reported commit leaves the release (its running release is then unknown, left alone) and
    // comes back to a new one: the device runs that one now.
    await db.query(`UPDATE "release" SET "commit" = 'elsewhere' WHERE "id" = $1`, [releaseId]);
    const newer = await fx.createRelease(db, fleet.id, 'steady');
    await settle();
    expect(await report(a)).toBe(1);
    expect((await stored())?.is_running__release).toBe(newer);
  });

  it('reads the database while its notifications are down', async () => {
    await steady(a);
    const pid = a.ctx.notifications.backendPid();
    expect(pid).toBeDefined();
    await db.query('SELECT pg_terminate_backend($1)', [pid ?? null]);
    await waitFor('the process to notice', () => !a.ctx.notifications.isLive());
    // Losing the connection forgot everything; what it applies meanwhile is not trusted either,
    // for nobody tells it of a change made now.
    expect(await report(a)).toBe(1);
    await db.query(`UPDATE "device" SET "status" = 'Unheard' WHERE "id" = $1`, [device.id]);
    expect(await report(a)).toBe(1);
    expect((await stored())?.status).toBe('Idle');
    await waitFor('the process to listen again', () => a.ctx.notifications.isLive());
  });
});
