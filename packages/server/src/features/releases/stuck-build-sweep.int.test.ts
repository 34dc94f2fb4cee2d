import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { waitFor } from '../../test-support/wait-for.js';
import { startRelease } from '../builder/build-release.js';
import { registerFleetHooks } from '../fleets/fleet-hooks.js';
import type { Schedule } from '../../infra/scheduling/periodic-task.js';
import { registerReleaseHooks } from './release-hooks.js';
import {
  interruptedBuildReason,
  registerStuckBuildSweep,
  serverBuildDeadlineMs,
  stuckBuildReason,
  stuckBuildSweepIntervalMs,
  sweepStuckBuilds,
} from './stuck-build-sweep.js';

// Builds left running (a crashed builder, a balena deploy whose client went away) are ended as
// failed once their last update is 120 minutes old.

const minuteMs = 60_000;

describe('stuck build sweep', () => {
  let db: Database;
  let fleet = 0;
  let service = 0;
  let commits = 0;

  // A running release last updated `minutesAgo` before `now`, with one running image.
  const runningBuild = async (now: Date, minutesAgo: number) => {
    const release = await fx.createRelease(db, fleet, `c${++commits}`, { status: 'running' });
    const at = new Date(now.getTime() - minutesAgo * minuteMs);
    await db.query(
      `UPDATE "release" SET "start_timestamp" = $2, "update_timestamp" = $2,
              "build_log" = '[main] Pushing' WHERE "id" = $1`,
      [release, at],
    );
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO "image" ("is_a_build_of__service", "is_stored_at__image_location", "status")
       VALUES ($1, 'registry.test/v2/abc', 'running') RETURNING "id"`,
      [service],
    );
    const image = rows[0]?.id ?? 0;
    await db.query('INSERT INTO "release_image" ("image", "is_part_of__release") VALUES ($1, $2)', [
      image,
      release,
    ]);
    return { release, image };
  };

  const releaseRow = async (id: number) =>
    (
      await db.query<{ status: string; build_log: string | null; end_timestamp: Date | null }>(
        'SELECT "status", "build_log", "end_timestamp" FROM "release" WHERE "id" = $1',
        [id],
      )
    ).rows[0];

  const imageRow = async (id: number) =>
    (
      await db.query<{ status: string; error_message: string | null; build_log: string | null }>(
        'SELECT "status", "error_message", "build_log" FROM "image" WHERE "id" = $1',
        [id],
      )
    ).rows[0];

  beforeAll(async () => {
    db = await createTestDatabase();
    fleet = (await fx.createFleet(db, await fx.createOrganization(db, 'Sweep'), 'fleet')).id;
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO "service" ("application", "service_name") VALUES ($1, 'main') RETURNING "id"`,
      [fleet],
    );
    service = rows[0]?.id ?? 0;
  });

  afterAll(async () => {
    await db.close();
  });

  it('fails builds idle for over 120 minutes with the reason, and leaves the others', async () => {
    const now = new Date(Date.now() + 10 * minuteMs);
    const stuck = await runningBuild(now, 121);
    const recent = await runningBuild(now, 119);
    const done = await fx.createRelease(db, fleet, `c${++commits}`, { status: 'success' });
    await db.query(
      `UPDATE "release" SET "update_timestamp" = now() - interval '1 day' WHERE "id" = $1`,
      [done],
    );
    expect(await sweepStuckBuilds(db, now)).toEqual({ interrupted: [], timedOut: [stuck.release] });
    expect(await releaseRow(stuck.release)).toEqual({
      status: 'failed',
      build_log: `[main] Pushing\n${stuckBuildReason}`,
      end_timestamp: now,
    });
    expect(await imageRow(stuck.image)).toEqual({
      status: 'failed',
      error_message: stuckBuildReason,
      build_log: stuckBuildReason,
    });
    expect((await releaseRow(recent.release))?.status).toBe('running');
    expect((await imageRow(recent.image))?.status).toBe('running');
    expect((await releaseRow(done))?.status).toBe('success');
    // Swept once: a second sweep (another server process) finds nothing more to end.
    expect(await sweepStuckBuilds(db, now)).toEqual({ interrupted: [], timedOut: [] });
    expect((await releaseRow(stuck.release))?.build_log).toBe(
      `[main] Pushing\n${stuckBuildReason}`,
    );
  });

  it('two processes sweeping at once end each build once', async () => {
    const now = new Date(Date.now() + 10 * minuteMs);
    const stuck = await runningBuild(now, 200);
    const [first, second] = await Promise.all([
      sweepStuckBuilds(db, now),
      sweepStuckBuilds(db, now),
    ]);
    expect([...(first?.timedOut ?? []), ...(second?.timedOut ?? [])]).toEqual([stuck.release]);
    expect((await releaseRow(stuck.release))?.build_log).toBe(
      `[main] Pushing\n${stuckBuildReason}`,
    );
  });

  it('a fleet tracking latest keeps its target when a newer build is swept', async () => {
    const now = new Date(Date.now() + 10 * minuteMs);
    const target = await fx.createRelease(db, fleet, `c${++commits}`, { status: 'success' });
    await db.query('UPDATE "application" SET "should_be_running__release" = $2 WHERE "id" = $1', [
      fleet,
      target,
    ]);
    await runningBuild(now, 300);
    await sweepStuckBuilds(db, now);
    const { rows } = await db.query<{ target: number | null }>(
      'SELECT "should_be_running__release" AS "target" FROM "application" WHERE "id" = $1',
      [fleet],
    );
    expect(rows[0]?.target).toBe(target);
  });

  it("ends the server's own builds 15 minutes after their start (their server stopped)", async () => {
    const owner = await fx.createUser(db, `owner${++commits}`);
    const organization = await fx.createOrganization(db, `Builds${commits}`);
    await fx.addOrganizationMember(db, owner.userId, organization, 'administrator');
    const own = await fx.createFleet(db, organization, 'built');
    let clock = new Date();
    const ctx = createTestContext(db, { now: () => clock });
    registerFleetHooks(ctx.hooks);
    registerReleaseHooks(ctx.hooks, { registryHost: 'registry.test' });
    const actor = {
      kind: 'user',
      userId: owner.userId,
      actorId: owner.actorId,
      platformPermissions: [],
      via: 'session',
      twoFactorPending: false,
      emailVerificationPending: false,
    } as const;
    const lost = await startRelease(ctx, actor, own.id);
    // A deploy of the same age that no server builds (balena deploy pushing images) is left.
    const pushed = await fx.createRelease(db, own.id, `c${++commits}`, { status: 'running' });
    clock = new Date(clock.getTime() + serverBuildDeadlineMs - 1000);
    expect((await sweepStuckBuilds(db, clock)).interrupted).toEqual([]);
    expect((await releaseRow(lost))?.status).toBe('running');
    clock = new Date(clock.getTime() + 2000);
    // Earlier tests' builds may time out meanwhile: only the interrupted ones are this test's.
    expect((await sweepStuckBuilds(db, clock)).interrupted).toEqual([lost]);
    expect(await releaseRow(lost)).toEqual({
      status: 'failed',
      build_log: interruptedBuildReason,
      end_timestamp: clock,
    });
    expect((await releaseRow(pushed))?.status).toBe('running');
    const { rows } = await db.query('SELECT 1 FROM "server_build" WHERE "release" = $1', [lost]);
    expect(rows).toEqual([]);
  });

  it('the server sweeps when ready and on every interval, by its clock', async () => {
    const scheduled: { task: () => void; ms: number }[] = [];
    const schedule: Schedule = (task, ms) => {
      const entry = { task, ms };
      scheduled.push(entry);
      return () => scheduled.splice(scheduled.indexOf(entry), 1);
    };
    let clock = new Date(Date.now() + 10 * minuteMs);
    const ctx = createTestContext(db, { now: () => clock });
    const first = await runningBuild(clock, 125);
    const second = await runningBuild(clock, 100);
    const app = await createTestApp(ctx, (instance, context) =>
      registerStuckBuildSweep(instance, context, { schedule }),
    );
    const runs = async (): Promise<void> => {
      scheduled.shift()?.task();
      await waitFor('the next sweep to be scheduled', () => scheduled.length > 0);
    };
    try {
      expect(scheduled.map((entry) => entry.ms)).toEqual([0]);
      await runs();
      expect((await releaseRow(first.release))?.status).toBe('failed');
      expect((await releaseRow(second.release))?.status).toBe('running');
      expect(scheduled.map((entry) => entry.ms)).toEqual([stuckBuildSweepIntervalMs]);
      clock = new Date(clock.getTime() + 21 * minuteMs);
      await runs();
      expect((await releaseRow(second.release))?.status).toBe('failed');
    } finally {
      await app.close();
    }
    expect(scheduled).toEqual([]);
  });
});
