import { randomBytes } from 'node:crypto';
import type { BalenaSDK } from 'balena-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fx from '../src/test-support/fixtures.js';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import {
  createFleet,
  createOrganization,
  deviceTypeSlug,
  failureOf,
  insertDevice,
  registerUser,
} from './contract-helpers.js';

type Fleet = Awaited<ReturnType<typeof createFleet>>;

// The device Action-menu methods of balena-sdk against Flotilla (issue 10): each writes the
// field behind the action, and a role without the action's permission gets 401 and changes
// nothing.

describe('device Action-menu methods of balena-sdk', () => {
  let server: TestServer;
  let sdk: BalenaSDK;
  let safeOperator: BalenaSDK;
  let userId: number;
  let deviceTypeId: number;
  let fleet: Fleet;
  let target: Fleet;

  const newDevice = () => insertDevice(server, { fleetId: fleet.id, deviceTypeId, userId });

  const insertRelease = async (fleetId: number, invalidated = false): Promise<string> => {
    const commit = randomBytes(16).toString('hex');
    await server.ctx.db.query(
      `INSERT INTO "release" ("belongs_to__application", "commit", "status", "source", "is_final",
         "is_passing_tests", "is_invalidated", "composition")
       VALUES ($1, $2, 'success', 'cloud', true, true, $3, '{}'::jsonb)`,
      [fleetId, commit, invalidated],
    );
    return commit;
  };

  const field = async (uuid: string, name: string): Promise<unknown> => {
    const { rows } = await server.ctx.db.query<{ value: unknown }>(
      `SELECT "${name}" AS value FROM "device" WHERE "uuid" = $1`,
      [uuid],
    );
    return rows[0]?.value;
  };

  beforeAll(async () => {
    server = await startTestServer();
    sdk = (await registerUser(server.url, 'actions')).sdk;
    userId = (await sdk.auth.getUserInfo()).id;
    const org = await createOrganization(sdk, 'Actions org');
    deviceTypeId = (await sdk.models.deviceType.get(deviceTypeSlug, { $select: 'id' })).id;
    fleet = await createFleet(sdk, org.id, 'actions');
    target = await createFleet(sdk, org.id, 'target');
    safeOperator = (await registerUser(server.url, 'safeop')).sdk;
    const safeOperatorId = (await safeOperator.auth.getUserInfo()).id;
    await fx.addFleetMember(server.ctx.db, safeOperatorId, fleet.id, 'safe-operator');
    await fx.addFleetMember(server.ctx.db, safeOperatorId, target.id, 'developer');
  });

  afterAll(async () => {
    await server?.close();
  });

  it('pinToRelease pins a valid release of the fleet, trackApplicationRelease unpins', async () => {
    const device = await newDevice();
    const commit = await insertRelease(fleet.id);
    await sdk.models.device.pinToRelease(device.uuid, commit);
    expect(await sdk.models.device.isTrackingApplicationRelease(device.uuid)).toBe(false);
    expect(await sdk.models.device.getTargetReleaseHash(device.uuid)).toBe(commit);
    await sdk.models.device.trackApplicationRelease(device.uuid);
    expect(await sdk.models.device.isTrackingApplicationRelease(device.uuid)).toBe(true);
  });

  it('pinToRelease refuses an invalidated release and the device keeps tracking', async () => {
    const device = await newDevice();
    const commit = await insertRelease(fleet.id, true);
    const error = await failureOf(sdk.models.device.pinToRelease(device.uuid, commit));
    expect(error.message).toMatch(/Only valid releases can be pinned/);
    expect(await field(device.uuid, 'is_pinned_on__release')).toBeNull();
  });

  it('enableDeviceUrl and disableDeviceUrl toggle the public URL', async () => {
    const device = await newDevice();
    await sdk.models.device.enableDeviceUrl(device.uuid);
    expect(await sdk.models.device.hasDeviceUrl(device.uuid)).toBe(true);
    expect(await sdk.models.device.getDeviceUrl(device.uuid)).toContain(device.uuid);
    await sdk.models.device.disableDeviceUrl(device.uuid);
    expect(await sdk.models.device.hasDeviceUrl(device.uuid)).toBe(false);
  });

  it('grantSupportAccess sets the expiry and revokeSupportAccess clears it', async () => {
    const device = await newDevice();
    const until = Date.now() + 3 * 24 * 3600 * 1000;
    await sdk.models.device.grantSupportAccess(device.uuid, until);
    const granted = await field(device.uuid, 'is_accessible_by_support_until__date');
    expect(granted instanceof Date ? granted.getTime() : null).toBe(until);
    await sdk.models.device.revokeSupportAccess(device.uuid);
    expect(await field(device.uuid, 'is_accessible_by_support_until__date')).toBeNull();
  });

  it('enableLocalMode works on a development device and is refused on production', async () => {
    const device = await newDevice();
    // balena-sdk itself wants a provisioned device (supervisor version, a first contact).
    const setVariant = (variant: string) =>
      server.ctx.db.query(
        `UPDATE "device" SET "os_version" = 'balenaOS 6.1.24', "os_variant" = $2,
                "supervisor_version" = '17.0.1', "last_contact_at" = now(),
                "connected_since" = now(), "online_since" = now() WHERE "uuid" = $1`,
        [device.uuid, variant],
      );
    await setVariant('dev');
    await sdk.models.device.enableLocalMode(device.uuid);
    expect(await sdk.models.device.isInLocalMode(device.uuid)).toBe(true);
    await sdk.models.device.disableLocalMode(device.uuid);
    expect(await sdk.models.device.isInLocalMode(device.uuid)).toBe(false);
    await setVariant('prod');
    // balena-sdk checks first; the server refuses the variable itself to any client.
    const refused = await failureOf(sdk.models.device.enableLocalMode(device.uuid));
    expect(refused.message).toMatch(/development/);
    const error = await failureOf(
      sdk.pine.post({
        resource: 'device_config_variable',
        body: { device: device.id, name: 'RESIN_SUPERVISOR_LOCAL_MODE', value: '1' },
      }),
    );
    expect(error.statusCode).toBe(400);
    expect(error.message).toMatch(/only available on development OS variants/);
    expect(await sdk.models.device.isInLocalMode(device.uuid)).toBe(false);
  });

  it('deactivate sets is_active false', async () => {
    const device = await newDevice();
    await sdk.models.device.deactivate(device.uuid);
    expect(await field(device.uuid, 'is_active')).toBe(false);
  });

  it('a safe-operator gets 401 for move and deactivate, and the device is unchanged', async () => {
    const device = await newDevice();
    const moved = await failureOf(safeOperator.models.device.move(device.uuid, target.id));
    expect(moved.statusCode, moved.message).toBe(401);
    expect(await field(device.uuid, 'belongs_to__application')).toBe(fleet.id);
    const deactivated = await failureOf(safeOperator.models.device.deactivate(device.uuid));
    expect(deactivated.statusCode, deactivated.message).toBe(401);
    expect(await field(device.uuid, 'is_active')).toBe(true);
    // What resin.device.update covers stays open to them.
    await safeOperator.models.device.enableDeviceUrl(device.uuid);
    expect(await field(device.uuid, 'is_web_accessible')).toBe(true);
  });
});
