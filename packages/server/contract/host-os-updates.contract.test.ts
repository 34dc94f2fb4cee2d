import type { BalenaSDK } from 'balena-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueFile } from '../src/features/host-os/catalogue-entry.js';
import { importCatalogue, listReleases } from '../src/features/host-os/catalogue-store.js';
import { type BalenaCli, balenaCli } from '../src/test-support/balena-cli.js';
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

// balena-sdk's queued OS update and supervisor update (device.pinToOsRelease,
// device.pinToSupervisorRelease) and balena-cli's `device os-update` against Flotilla: they set
// the release the device should run, a downgrade is refused, and a role without the supervisor
// update permission changes nothing. (balena-cli 25 has no supervisor update command.)

type Targets = { os: number | null; supervisor: number | null };

describe('OS and supervisor updates through balena-sdk', () => {
  let server: TestServer;
  let sdk: BalenaSDK;
  let cli: BalenaCli;
  let safeOperator: BalenaSDK;
  let userId: number;
  let deviceTypeId: number;
  let fleetId: number;
  const release = new Map<string, number>();

  const id = (key: string): number => {
    const found = release.get(key);
    if (found === undefined) throw new Error(`no catalogue release ${key}`);
    return found;
  };

  // A device that runs balenaOS 6.0.13 (prod) and supervisor 16.2.0.
  const newDevice = async (): Promise<string> => {
    const { uuid } = await insertDevice(server, { fleetId, deviceTypeId, userId });
    await server.ctx.db.query(
      `UPDATE "device" SET "os_version" = 'balenaOS 6.0.13', "os_variant" = 'prod',
              "supervisor_version" = '16.2.0' WHERE "uuid" = $1`,
      [uuid],
    );
    return uuid;
  };

  const targetsOf = async (uuid: string): Promise<Targets> => {
    const { rows } = await server.ctx.db.query<Targets>(
      `SELECT "should_be_operated_by__release" AS "os", "should_be_managed_by__release" AS "supervisor"
         FROM "device" WHERE "uuid" = $1`,
      [uuid],
    );
    const row = rows[0];
    if (row === undefined) throw new Error(`no device ${uuid}`);
    return row;
  };

  beforeAll(async () => {
    server = await startTestServer();
    const os = ['5.3.21', '6.0.13', '6.1.0'].map((version) => ({
      kind: 'os',
      deviceType: deviceTypeSlug,
      version,
      variant: 'prod',
    }));
    const supervisor = ['16.0.0', '16.2.0', '16.4.0'].map((version) => ({
      kind: 'supervisor',
      cpuArchitecture: 'aarch64',
      version,
    }));
    const file = catalogueFile.parse({ releases: [...os, ...supervisor] });
    await server.ctx.db.transaction((tx) => importCatalogue(tx, file));
    for (const entry of await listReleases(server.ctx.db)) {
      release.set(`${entry.kind} ${entry.version}`, entry.id);
    }
    const owner = await registerUser(server.url, 'hup');
    sdk = owner.sdk;
    cli = await balenaCli(server.url);
    await cli.run(['login', '--token', owner.token]);
    userId = (await sdk.auth.getUserInfo()).id;
    const org = await createOrganization(sdk, 'Updates org');
    deviceTypeId = (await sdk.models.deviceType.get(deviceTypeSlug, { $select: 'id' })).id;
    fleetId = (await createFleet(sdk, org.id, 'updates')).id;
    safeOperator = (await registerUser(server.url, 'hupsafeop')).sdk;
    const safeOperatorId = (await safeOperator.auth.getUserInfo()).id;
    await fx.addFleetMember(server.ctx.db, safeOperatorId, fleetId, 'safe-operator');
  });

  afterAll(async () => {
    await server?.close();
  });

  it('pinToOsRelease sets the host release to run; a downgrade is refused', async () => {
    const uuid = await newDevice();
    expect((await targetsOf(uuid)).os).toBe(id('os 6.0.13'));
    await sdk.models.device.pinToOsRelease(uuid, '6.1.0');
    expect((await targetsOf(uuid)).os).toBe(id('os 6.1.0'));

    // balena-sdk refuses the downgrade itself; the PATCH it would send is refused by the API too.
    const other = await newDevice();
    const refused = await failureOf(sdk.models.device.pinToOsRelease(other, '5.3.21'));
    expect(refused.message).toContain('OS downgrades are not allowed');
    const error = await failureOf(
      sdk.pine.patch({
        resource: 'device',
        options: { $filter: { uuid: other } },
        body: { should_be_operated_by__release: id('os 5.3.21') },
      }),
    );
    expect(error.statusCode, error.message).toBe(400);
    expect(error.message).toContain('OS downgrades are not allowed: ');
    expect((await targetsOf(other)).os).toBe(id('os 6.0.13'));
  });

  it('pinToSupervisorRelease sets the supervisor release to run; a downgrade is refused', async () => {
    const uuid = await newDevice();
    await sdk.models.device.pinToSupervisorRelease(uuid, '16.4.0');
    expect((await targetsOf(uuid)).supervisor).toBe(id('supervisor 16.4.0'));

    const other = await newDevice();
    const error = await failureOf(sdk.models.device.pinToSupervisorRelease(other, '16.0.0'));
    expect(error.statusCode, error.message).toBe(400);
    expect(error.message).toContain('Supervisor downgrades are not allowed');
    expect((await targetsOf(other)).supervisor).toBeNull();
  });

  it('balena device os-update sets the host release to run; a version not offered is refused', async () => {
    const uuid = await newDevice();
    const output = await cli.run(['device', 'os-update', uuid, '--version', '6.1.0', '--yes']);
    expect(output).toContain('The balena OS update has started');
    expect((await targetsOf(uuid)).os).toBe(id('os 6.1.0'));

    // 5.3.21 is older than what the device runs: not among its update targets.
    const other = await newDevice();
    const refused = await cli
      .run(['device', 'os-update', other, '--version', '5.3.21', '--yes'])
      .then(
        () => 'ran',
        (error: unknown) => String(error),
      );
    expect(refused).toContain(
      'The provided version 5.3.21 is not in the Host OS update targets for this device',
    );
    expect((await targetsOf(other)).os).toBe(id('os 6.0.13'));
  });

  it('a safe-operator updates the OS but not the supervisor', async () => {
    const uuid = await newDevice();
    await safeOperator.models.device.pinToOsRelease(uuid, '6.1.0');
    expect((await targetsOf(uuid)).os).toBe(id('os 6.1.0'));
    const error = await failureOf(
      safeOperator.models.device.pinToSupervisorRelease(uuid, '16.4.0'),
    );
    expect(error.statusCode, error.message).toBe(401);
    expect((await targetsOf(uuid)).supervisor).toBeNull();
  });
});
