import { eventCatalogue, eventTypes, isEventType } from '@flotilla/shared/events/event-catalogue';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { sweepPresence } from './presence-sweep.js';

type Emitted = { type: string; organization: number; fleet: number | null; data: object };

// Every change writes its event in its own transaction (migration 0062's triggers), whatever path
// makes it: these tests write the rows as the features do and count what the outbox holds.
describe('the event outbox', () => {
  let db: Database;
  let organization: number;
  let fleet: fx.FleetFixture;
  const seen = new Set<string>();

  const drain = async (): Promise<Emitted[]> => {
    const { rows } = await db.query<Emitted & { id: number }>(
      `DELETE FROM "event_outbox" RETURNING "id", "type", "organization", "fleet", "data"`,
    );
    const sorted = rows.sort((a, b) => a.id - b.id);
    for (const row of sorted) {
      seen.add(row.type);
      expect(isEventType(row.type), row.type).toBe(true);
      if (isEventType(row.type)) eventCatalogue[row.type].data.parse(row.data);
    }
    return sorted;
  };
  const typesOf = (events: Emitted[]) => events.map((event) => event.type);

  beforeAll(async () => {
    db = await createTestDatabase();
    organization = await fx.createOrganization(db, 'Eventful');
    fleet = await fx.createFleet(db, organization, 'eventful');
  });
  afterAll(async () => {
    // Every type of the catalogue was emitted by some test here.
    expect([...seen].sort()).toEqual([...eventTypes].sort());
    await db?.close();
  });
  beforeEach(async () => {
    await drain();
  });

  it('tells a device going online once, and offline once when its deadline passes', async () => {
    const device = await fx.createDevice(db, fleet.id, 'pi');
    await drain();
    await db.query(`UPDATE "device" SET "last_contact_at" = now() WHERE "id" = $1`, [device.id]);
    const online = await drain();
    expect(typesOf(online)).toEqual(['device.online', 'device.overall_status_changed']);
    expect(online[0]).toMatchObject({ organization, fleet: fleet.id });
    // Steady contacts tell nothing.
    await db.query(`UPDATE "device" SET "last_contact_at" = now() WHERE "id" = $1`, [device.id]);
    expect(await drain()).toEqual([]);
    expect(await sweepPresence(db)).toBe(0);

    await db.query(
      `UPDATE "device" SET "last_contact_at" = now() - interval '2 hours' WHERE "id" = $1`,
      [device.id],
    );
    expect(await drain()).toEqual([]);
    expect(await sweepPresence(db)).toBe(1);
    expect(await sweepPresence(db)).toBe(0);
    expect(typesOf(await drain())).toEqual(['device.offline']);

    await db.query(`UPDATE "device" SET "last_contact_at" = now() WHERE "id" = $1`, [device.id]);
    expect(typesOf(await drain())).toEqual(['device.online']);
  });

  it('tells the offline first when a device comes back before the sweep saw it go', async () => {
    const device = await fx.createDevice(db, fleet.id, 'quick');
    await db.query(`UPDATE "device" SET "last_contact_at" = now() WHERE "id" = $1`, [device.id]);
    await db.query(
      `UPDATE "device" SET "last_contact_at" = now() - interval '2 hours' WHERE "id" = $1`,
      [device.id],
    );
    await drain();
    await db.query(`UPDATE "device" SET "last_contact_at" = now() WHERE "id" = $1`, [device.id]);
    expect(typesOf(await drain())).toEqual(['device.offline', 'device.online']);
    expect(await sweepPresence(db)).toBe(0);
  });

  it('tells update status changes once each', async () => {
    const device = await fx.createDevice(db, fleet.id, 'updating');
    await db.query(`UPDATE "device" SET "last_contact_at" = now() WHERE "id" = $1`, [device.id]);
    await drain();
    await db.query(`UPDATE "device" SET "update_status" = 'downloading' WHERE "id" = $1`, [
      device.id,
    ]);
    const events = await drain();
    expect(typesOf(events)).toEqual([
      'device.overall_status_changed',
      'device.update_status_changed',
    ]);
    expect(events[1]?.data).toMatchObject({ previous: null, current: 'downloading' });
    await db.query(`UPDATE "device" SET "update_status" = 'downloading' WHERE "id" = $1`, [
      device.id,
    ]);
    expect(await drain()).toEqual([]);
  });

  it('tells releases created, succeeded and failed', async () => {
    const first = await fx.createRelease(db, fleet.id, 'a'.repeat(32), { status: 'running' });
    await db.query(`UPDATE "release" SET "status" = 'success' WHERE "id" = $1`, [first]);
    await db.query(`UPDATE "release" SET "status" = 'success' WHERE "id" = $1`, [first]);
    const second = await fx.createRelease(db, fleet.id, 'b'.repeat(32), { status: 'running' });
    await db.query(`UPDATE "release" SET "status" = 'failed' WHERE "id" = $1`, [second]);
    expect(typesOf(await drain())).toEqual([
      'release.created',
      'release.succeeded',
      'release.created',
      'release.failed',
    ]);
  });

  it('tells variable changes by name, never their values', async () => {
    const variable = await fx.setFleetEnvVar(db, fleet.id, 'TOKEN', 'secret-value');
    await db.query(
      `UPDATE "application_environment_variable" SET "value" = 'secret-value' WHERE "id" = $1`,
      [variable],
    );
    await db.query(
      `UPDATE "application_environment_variable" SET "value" = 'other' WHERE "id" = $1`,
      [variable],
    );
    await db.query(`DELETE FROM "application_environment_variable" WHERE "id" = $1`, [variable]);
    const events = await drain();
    expect(events.map((event) => (event.data as { change: string }).change)).toEqual([
      'created',
      'updated',
      'deleted',
    ]);
    expect(JSON.stringify(events)).not.toContain('secret-value');
  });

  it('tells members added and removed, of the organization and of a fleet', async () => {
    const user = await fx.createUser(db, 'joiner');
    const membership = await fx.addOrganizationMember(db, user.userId, organization, 'member');
    const fleetMembership = await fx.addFleetMember(db, user.userId, fleet.id, 'developer');
    await db.query(`DELETE FROM "organization_membership" WHERE "id" = $1`, [membership]);
    await db.query(`DELETE FROM "user_application_membership" WHERE "id" = $1`, [fleetMembership]);
    const events = await drain();
    expect(typesOf(events)).toEqual([
      'member.added',
      'member.added',
      'member.removed',
      'member.removed',
    ]);
    expect(events[1]).toMatchObject({ fleet: fleet.id, data: { username: 'joiner' } });
  });

  it("tells a fleet's keys created and revoked, not a user's own", async () => {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO "api_key" ("is_of__actor", "name", "key_hash") VALUES ($1, 'provisioning', 'h1')
       RETURNING "id"`,
      [fleet.actorId],
    );
    await db.query(`DELETE FROM "api_key" WHERE "id" = $1`, [rows[0]?.id ?? 0]);
    const user = await fx.createUser(db, 'keyholder');
    await db.query(
      `INSERT INTO "api_key" ("is_of__actor", "name", "key_hash") VALUES ($1, 'mine', 'h2')`,
      [user.actorId],
    );
    expect(typesOf(await drain())).toEqual(['key.created', 'key.revoked']);
  });

  it('tells an alert fired and resolved once each, and nothing for its reminders', async () => {
    const device = await fx.createDevice(db, fleet.id, 'alerting');
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO "flotilla_alert_rule" ("belongs_to__organization", "name", "condition")
       VALUES ($1, 'Failed', 'update failed') RETURNING "id"`,
      [organization],
    );
    const started = new Date('2026-11-30T10:00:00Z');
    const alert = await db.query<{ id: number }>(
      `INSERT INTO "flotilla_alert" ("is_raised_by__flotilla_alert_rule", "device", "status",
                                     "started_at", "detail")
       VALUES ($1, $2, 'firing', $3, 'Update aborted') RETURNING "id"`,
      [rows[0]?.id ?? 0, device.id, started],
    );
    expect(typesOf(await drain())).toEqual(['alert.fired']);
    const alertId = alert.rows[0]?.id ?? 0;
    await db.query(`UPDATE "flotilla_alert" SET "last_notified_at" = now() WHERE "id" = $1`, [
      alertId,
    ]);
    await db.query(
      `UPDATE "flotilla_alert" SET "status" = 'resolved', "resolved_at" = $2 WHERE "id" = $1`,
      [alertId, new Date('2026-11-30T10:05:00Z')],
    );
    const events = await drain();
    expect(typesOf(events)).toEqual(['alert.resolved']);
    expect(events[0]).toMatchObject({
      fleet: fleet.id,
      data: { alert: alertId, ruleName: 'Failed', deviceName: 'alerting', silenced: false },
    });
  });

  it('writes nothing when the change rolls back', async () => {
    await expect(
      db.transaction(async (tx) => {
        await fx.setFleetEnvVar(tx, fleet.id, 'ROLLED', 'back');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await drain()).toEqual([]);
  });
});
