import { releaseRuleMessages } from '@flotilla/shared/releases/release-status';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import {
  addOrganizationMember,
  createDevice,
  createFleet,
  createOrganization,
  createUser,
  type FleetFixture,
} from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';

type Row = Record<string, unknown>;
const rows = (body: unknown): Row[] => (body as { d: Row[] }).d;

// The release rules (what may be pinned, invalidated, edited), enforced on every /v7 write with
// the messages the console shows (features/releases/release-hooks.ts).
describe('release rules', () => {
  let db: Database;
  let api: ODataTestApp;
  let organizationId: number;
  let commits = 0;

  const newFleet = (name: string): Promise<FleetFixture> =>
    createFleet(db, organizationId, `${name}${commits++}`);

  // A release written through the API as a builder would leave it.
  const release = async (
    fleet: FleetFixture,
    fields: Row = {},
    createdAt?: string,
  ): Promise<number> => {
    const response = await api.send(
      'POST',
      '/release',
      {
        belongs_to__application: fleet.id,
        commit: `commit${commits++}`,
        status: 'success',
        source: 'cloud',
        composition: {},
        ...fields,
      },
      'alice',
    );
    expect(response.status, response.text).toBe(201);
    const id = (response.body as { id: number }).id;
    if (createdAt) {
      await db.query('UPDATE "release" SET "created_at" = $2 WHERE "id" = $1', [id, createdAt]);
    }
    return id;
  };

  const patch = (path: string, body: Row) => api.send('PATCH', path, body, 'alice');

  const fleetTarget = async (fleet: FleetFixture): Promise<Row | undefined> =>
    rows(
      (
        await api.get(
          `/application(${fleet.id})?$select=should_track_latest_release,should_be_running__release`,
          'alice',
        )
      ).body,
    )[0];

  const deviceTarget = async (deviceId: number): Promise<unknown> =>
    rows(
      (await api.get(`/device(${deviceId})?$select=should_be_running__release`, 'alice')).body,
    )[0]?.should_be_running__release;

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    const alice = await createUser(db, 'alice');
    api.actors.set('alice', userActor(alice));
    organizationId = await createOrganization(db, 'Acme');
    await addOrganizationMember(db, alice.userId, organizationId, 'administrator');
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  it('finalizing is one-way', async () => {
    const fleet = await newFleet('final');
    const draft = await release(fleet, { is_final: false });
    expect((await patch(`/release(${draft})`, { is_final: false })).status).toBe(200);
    expect((await patch(`/release(${draft})`, { is_final: true })).status).toBe(200);
    const [row] = rows(
      (await api.get(`/release(${draft})?$select=is_final,is_finalized_at__date`, 'alice')).body,
    );
    expect(row?.is_final).toBe(true);
    expect(typeof row?.is_finalized_at__date).toBe('string');
    const undo = await patch(`/release(${draft})`, { is_final: false });
    expect(undo.status).toBe(400);
    expect(undo.text).toBe(releaseRuleMessages.alreadyFinalized);
    // Finalizing it again changes nothing and is fine.
    expect((await patch(`/release(${draft})`, { is_final: true })).status).toBe(200);
  });

  it('refuses to validate or invalidate failed releases, timed-out builds included', async () => {
    const fleet = await newFleet('failed');
    for (const status of ['failed', 'error', 'interrupted', 'cancelled', 'timeout']) {
      const id = await release(fleet, { status });
      const response = await patch(`/release(${id})`, { is_invalidated: true });
      expect(response.status, status).toBe(400);
      expect(response.text).toBe(releaseRuleMessages.cannotValidateFailed);
    }
    // A running build not updated for over 120 minutes has timed out.
    const stale = await release(fleet, { status: 'running' });
    const fresh = await release(fleet, { status: 'running' });
    await db.query(
      `UPDATE "release" SET "update_timestamp" = now() - interval '121 minutes' WHERE "id" = $1`,
      [stale],
    );
    expect((await patch(`/release(${stale})`, { is_invalidated: true })).status).toBe(400);
    expect((await patch(`/release(${fresh})`, { is_invalidated: true })).status).toBe(200);
    // Setting the flag it already has is no change.
    const failed = await release(fleet, { status: 'failed' });
    expect((await patch(`/release(${failed})`, { is_invalidated: false })).status).toBe(200);
  });

  it('keeps update_timestamp as the time of the last change', async () => {
    const fleet = await newFleet('touch');
    const id = await release(fleet, { status: 'running' });
    await db.query(
      `UPDATE "release" SET "update_timestamp" = now() - interval '3 hours' WHERE "id" = $1`,
      [id],
    );
    expect((await patch(`/release(${id})`, { note: 'still building' })).status).toBe(200);
    const { rows: touched } = await db.query<{ recent: boolean }>(
      `SELECT "update_timestamp" > now() - interval '1 minute' AS "recent" FROM "release" WHERE "id" = $1`,
      [id],
    );
    expect(touched[0]?.recent).toBe(true);
  });

  it('moves a fleet off an invalidated release, and its unpinned devices with it', async () => {
    const fleet = await newFleet('invalidate');
    const older = await release(fleet, {}, '2024-01-01T00:00:00Z');
    const newer = await release(fleet, {}, '2024-02-01T00:00:00Z');
    // Created releases change the latest one: the fleet (tracking) runs the newest.
    await patch(`/application(${fleet.id})`, { should_track_latest_release: true });
    expect(await fleetTarget(fleet)).toEqual({
      should_track_latest_release: true,
      should_be_running__release: { __id: newer },
    });
    const follower = await createDevice(db, fleet.id, 'follower');
    const pinned = await createDevice(db, fleet.id, 'pinned');
    expect((await patch(`/device(${pinned.id})`, { is_pinned_on__release: newer })).status).toBe(
      200,
    );
    expect((await patch(`/release(${newer})`, { is_invalidated: true })).status).toBe(200);
    expect(await fleetTarget(fleet)).toMatchObject({ should_be_running__release: { __id: older } });
    expect(await deviceTarget(follower.id)).toEqual({ __id: older });
    expect(await deviceTarget(pinned.id)).toEqual({ __id: newer });
    // A fleet pinned to the invalidated release tracks the latest valid one again.
    const pinnedFleet = await newFleet('pinnedfleet');
    const first = await release(pinnedFleet, {}, '2024-01-01T00:00:00Z');
    const second = await release(pinnedFleet, {}, '2024-02-01T00:00:00Z');
    expect(
      (await patch(`/application(${pinnedFleet.id})`, { should_be_running__release: first }))
        .status,
    ).toBe(200);
    expect(await fleetTarget(pinnedFleet)).toEqual({
      should_track_latest_release: false,
      should_be_running__release: { __id: first },
    });
    expect((await patch(`/release(${first})`, { is_invalidated: true })).status).toBe(200);
    expect(await fleetTarget(pinnedFleet)).toEqual({
      should_track_latest_release: true,
      should_be_running__release: { __id: second },
    });
  });

  it('pins fleets and devices only to valid, successful releases of their own fleet', async () => {
    const fleet = await newFleet('pin');
    const other = await newFleet('pinother');
    const device = await createDevice(db, fleet.id, 'pinme');
    const good = await release(fleet);
    const invalid = await release(fleet);
    await patch(`/release(${invalid})`, { is_invalidated: true });
    const failed = await release(fleet, { status: 'failed' });
    const running = await release(fleet, { status: 'running' });
    const foreign = await release(other);
    const cases: [number, string][] = [
      [invalid, releaseRuleMessages.onlyValidPinned],
      [failed, releaseRuleMessages.onlySuccessfulPinned],
      [running, releaseRuleMessages.onlySuccessfulPinned],
      [foreign, releaseRuleMessages.otherFleet],
    ];
    for (const [id, message] of cases) {
      const onFleet = await patch(`/application(${fleet.id})`, { should_be_running__release: id });
      expect(onFleet.status, `fleet → ${id}`).toBe(400);
      expect(onFleet.text).toBe(message);
      const onDevice = await patch(`/device(${device.id})`, { is_pinned_on__release: id });
      expect(onDevice.status, `device → ${id}`).toBe(400);
      expect(onDevice.text).toBe(message);
    }
    expect(
      (await patch(`/application(${fleet.id})`, { should_be_running__release: good })).status,
    ).toBe(200);
    expect((await patch(`/device(${device.id})`, { is_pinned_on__release: good })).status).toBe(
      200,
    );
    // Unpinning (track the fleet) is always allowed.
    expect((await patch(`/device(${device.id})`, { is_pinned_on__release: null })).status).toBe(
      200,
    );
  });

  it('refuses to delete a release a fleet should run or a device is pinned to', async () => {
    const fleet = await newFleet('delete');
    const target = await release(fleet, {}, '2024-02-01T00:00:00Z');
    const pinnedTo = await release(fleet, {}, '2024-01-01T00:00:00Z');
    const free = await release(fleet, {}, '2023-01-01T00:00:00Z');
    const device = await createDevice(db, fleet.id, 'holder');
    await patch(`/application(${fleet.id})`, { should_track_latest_release: true });
    await patch(`/device(${device.id})`, { is_pinned_on__release: pinnedTo });
    for (const id of [target, pinnedTo]) {
      const refused = await api.send('DELETE', `/release(${id})`, undefined, 'alice');
      expect(refused.status).toBe(400);
      expect(refused.text).toBe(releaseRuleMessages.cannotDeletePinned);
    }
    // Bulk deletes are refused as a whole.
    const bulk = await api.send(
      'DELETE',
      `/release?$filter=id in (${free},${target})`,
      undefined,
      'alice',
    );
    expect(bulk.status).toBe(400);
    expect((await api.send('DELETE', `/release(${free})`, undefined, 'alice')).status).toBe(200);
    expect(
      rows((await api.get(`/release?$filter=id in (${free},${target})&$select=id`, 'alice')).body),
    ).toEqual([{ id: target }]);
  });

  it('points fleets tracking the latest release at each new successful final release', async () => {
    const fleet = await newFleet('track');
    const first = await release(fleet);
    expect(await fleetTarget(fleet)).toMatchObject({ should_be_running__release: { __id: first } });
    const draft = await release(fleet, { is_final: false });
    const building = await release(fleet, { status: 'running' });
    expect(await fleetTarget(fleet)).toMatchObject({ should_be_running__release: { __id: first } });
    await patch(`/release(${draft})`, { is_final: true });
    expect(await fleetTarget(fleet)).toMatchObject({ should_be_running__release: { __id: draft } });
    await patch(`/release(${building})`, {
      status: 'success',
      end_timestamp: new Date().toISOString(),
    });
    expect(await fleetTarget(fleet)).toMatchObject({
      should_be_running__release: { __id: building },
    });
    // A pinned fleet stays where it is.
    await patch(`/application(${fleet.id})`, { should_be_running__release: first });
    await release(fleet);
    expect(await fleetTarget(fleet)).toEqual({
      should_track_latest_release: false,
      should_be_running__release: { __id: first },
    });
  });

  it('records the creating user as the author unless the client names one', async () => {
    const fleet = await newFleet('author');
    const id = await release(fleet);
    const [row] = rows(
      (await api.get(`/release(${id})?$select=is_created_by__user`, 'alice')).body,
    );
    const alice = api.actors.get('alice');
    expect(row?.is_created_by__user).toEqual({
      __id: alice?.kind === 'user' ? alice.userId : -1,
    });
  });

  it('gives an image posted without a location a fresh repository of the registry', async () => {
    const fleet = await newFleet('image');
    const service = await api.send(
      'POST',
      '/service',
      { application: fleet.id, service_name: 'main' },
      'alice',
    );
    const image = await api.send(
      'POST',
      '/image',
      {
        is_a_build_of__service: (service.body as { id: number }).id,
        status: 'running',
        start_timestamp: new Date().toISOString(),
      },
      'alice',
    );
    expect(image.status, image.text).toBe(201);
    expect((image.body as Row).is_stored_at__image_location).toMatch(
      /^registry\.flotilla\.local\/v2\/[0-9a-f]{32}$/,
    );
  });

  it("refuses an image naming a repository of the server's registry that its fleet does not own", async () => {
    const [victim, attacker] = [await newFleet('victim'), await newFleet('attacker')];
    const imageIn = async (fleet: FleetFixture, location?: string) => {
      const service = await api.send(
        'POST',
        '/service',
        { application: fleet.id, service_name: `main${commits++}` },
        'alice',
      );
      return api.send(
        'POST',
        '/image',
        {
          is_a_build_of__service: (service.body as { id: number }).id,
          status: 'success',
          ...(location === undefined ? {} : { is_stored_at__image_location: location }),
        },
        'alice',
      );
    };
    const owned = await imageIn(victim);
    const location = String((owned.body as Row).is_stored_at__image_location);
    const before = await db.query('SELECT count(*)::int AS "n" FROM "image"');
    // Another fleet, the same location in any spelling of the host, or a repository never given.
    for (const named of [
      location,
      location.toUpperCase(),
      `registry.flotilla.local/v2/${'a'.repeat(32)}`,
    ]) {
      const refused = await imageIn(attacker, named);
      expect(refused.status, named).toBe(400);
      expect(refused.text).toMatch(/get their location from the server/);
    }
    // Nothing written by the refused posts (their services aside).
    const after = await db.query('SELECT count(*)::int AS "n" FROM "image"');
    expect(after.rows).toEqual(before.rows);
    // The fleet's own repository again, and an image of another registry, are the client's to name.
    expect((await imageIn(victim, location)).status).toBe(201);
    expect((await imageIn(attacker, 'docker.io/library/alpine:3.20')).status).toBe(201);
  });
});
