import { randomBytes } from 'node:crypto';
import type { FleetRole } from '@flotilla/shared/permissions/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { catalogueFile } from './catalogue-entry.js';
import { importCatalogue, listReleases } from './catalogue-store.js';

// Telling a device which host OS release and which supervisor release to run: the OS update and
// supervisor update permissions, and which releases are valid targets.

// Written out rather than read from the permission table.
const mayUpdateOs: Record<FleetRole, boolean> = {
  observer: false,
  'safe-operator': true,
  operator: true,
  'safe-developer': true,
  developer: true,
  administrator: true,
};
const mayUpdateSupervisor: Record<FleetRole, boolean> = {
  observer: false,
  'safe-operator': false,
  operator: true,
  'safe-developer': true,
  developer: true,
  administrator: true,
};
const roles = Object.keys(mayUpdateOs) as FleetRole[];

type Targets = { os: number | null; supervisor: number | null };

describe('host OS and supervisor targets on device writes', () => {
  let db: Database;
  let api: ODataTestApp;
  let fleet: fx.FleetFixture;
  const release = new Map<string, number>();

  const id = (key: string): number => {
    const found = release.get(key);
    if (found === undefined) throw new Error(`no catalogue release ${key}`);
    return found;
  };

  const targetsOf = async (deviceId: number): Promise<Targets> => {
    const { rows } = await db.query<Targets>(
      `SELECT "should_be_operated_by__release" AS "os", "should_be_managed_by__release" AS "supervisor"
         FROM "device" WHERE "id" = $1`,
      [deviceId],
    );
    const row = rows[0];
    if (row === undefined) throw new Error(`no device ${deviceId}`);
    return row;
  };

  // A device running `os` (prod unless said) and supervisor `supervisor`.
  const device = async (
    os = 'balenaOS 6.0.13',
    variant = 'prod',
    supervisor = '16.2.0',
    deviceType = 'raspberrypi4-64',
  ): Promise<number> => {
    const created = await fx.createDevice(db, fleet.id, 'gateway', { deviceType });
    await db.query(
      `UPDATE "device" SET "os_version" = $2, "os_variant" = $3, "supervisor_version" = $4 WHERE "id" = $1`,
      [created.id, os, variant, supervisor],
    );
    return created.id;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    const organization = await fx.createOrganization(db, 'Targets');
    fleet = await fx.createFleet(db, organization, 'Gateways', { deviceType: 'raspberrypi4-64' });
    for (const role of roles) {
      const user = await fx.createUser(db, role);
      if (role === 'administrator') {
        await fx.addOrganizationMember(db, user.userId, organization, 'administrator');
      } else {
        await fx.addFleetMember(db, user.userId, fleet.id, role);
      }
      api.actors.set(role, userActor(user));
    }
    const os = (version: string, variant: string, deviceType = 'raspberrypi4-64') => ({
      kind: 'os',
      deviceType,
      version,
      variant,
    });
    const supervisor = (version: string, cpuArchitecture = 'aarch64') => ({
      kind: 'supervisor',
      cpuArchitecture,
      version,
    });
    await db.transaction((tx) =>
      importCatalogue(
        tx,
        catalogueFile.parse({
          releases: [
            os('6.0.13', 'prod'),
            os('6.1.0', 'prod'),
            os('6.1.0', 'dev'),
            os('6.2.0', 'prod'),
            os('6.3.0', 'prod'),
            os('6.4.0', 'prod'),
            os('6.5.0', ''),
            os('6.1.0', 'prod', 'raspberrypi5'),
            supervisor('16.0.0'),
            supervisor('16.2.0'),
            supervisor('16.4.0'),
            supervisor('16.5.0'),
            supervisor('16.4.0', 'armv7hf'),
          ],
        }),
      ),
    );
    for (const entry of await listReleases(db)) {
      const where = entry.kind === 'os' ? entry.deviceType : entry.cpuArchitecture;
      release.set(`${entry.kind} ${where} ${entry.version} ${entry.variant}`.trim(), entry.id);
    }
    await db.query(`UPDATE "release" SET "is_invalidated" = true WHERE "id" = ANY($1::integer[])`, [
      [id('os raspberrypi4-64 6.2.0 prod'), id('supervisor aarch64 16.5.0')],
    ]);
    await db.query(`UPDATE "release" SET "is_final" = false WHERE "id" = $1`, [
      id('os raspberrypi4-64 6.3.0 prod'),
    ]);
    await db.query(`UPDATE "release" SET "status" = 'failed' WHERE "id" = $1`, [
      id('os raspberrypi4-64 6.4.0 prod'),
    ]);
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  it.each(roles)('%s: OS update sets the host release only with the permission', async (role) => {
    const deviceId = await device();
    const before = await targetsOf(deviceId);
    expect(before.os).toBe(id('os raspberrypi4-64 6.0.13 prod'));
    const target = id('os raspberrypi4-64 6.1.0 prod');
    const response = await api.send(
      'PATCH',
      `/device(${deviceId})`,
      { should_be_operated_by__release: target },
      role,
    );
    if (mayUpdateOs[role]) {
      expect(response.status, response.text).toBe(200);
      expect(await targetsOf(deviceId)).toEqual({ ...before, os: target });
    } else {
      expect(response.status, response.text).toBe(401);
      expect(await targetsOf(deviceId)).toEqual(before);
    }
  });

  it.each(roles)(
    '%s: supervisor update sets the supervisor release only with the permission',
    async (role) => {
      const deviceId = await device();
      const before = await targetsOf(deviceId);
      const target = id('supervisor aarch64 16.4.0');
      const response = await api.send(
        'PATCH',
        `/device?$filter=id in (${deviceId})`,
        { should_be_managed_by__release: target, note: 'updating' },
        role,
      );
      if (mayUpdateSupervisor[role]) {
        expect(response.status, response.text).toBe(200);
        expect(await targetsOf(deviceId)).toEqual({ ...before, supervisor: target });
      } else {
        expect(response.status, response.text).toBe(401);
        expect(await targetsOf(deviceId)).toEqual(before);
      }
    },
  );

  it.each([
    [
      'an older OS release',
      () => device('balenaOS 6.1.0'),
      'os raspberrypi4-64 6.0.13 prod',
      'OS downgrades are not allowed: gateway runs 6.1.0, the target is 6.0.13',
    ],
    [
      "another device type's release",
      () => device(),
      'os raspberrypi5 6.1.0 prod',
      'is not a host OS release for device type raspberrypi4-64',
    ],
    [
      'the other variant',
      () => device(),
      'os raspberrypi4-64 6.1.0 dev',
      'Updates cannot be performed between development and production balenaOS variants',
    ],
    [
      'an invalidated release',
      () => device(),
      'os raspberrypi4-64 6.2.0 prod',
      'OS release 6.2.0 cannot be targeted: only final, valid, successful releases can',
    ],
    [
      'a draft',
      () => device(),
      'os raspberrypi4-64 6.3.0 prod',
      'OS release 6.3.0 cannot be targeted',
    ],
    [
      'a failed release',
      () => device(),
      'os raspberrypi4-64 6.4.0 prod',
      'OS release 6.4.0 cannot be targeted',
    ],
    [
      'a supervisor release',
      () => device(),
      'supervisor aarch64 16.4.0',
      'is not a host OS release for device type raspberrypi4-64',
    ],
  ])('refuses %s as the OS target and writes nothing', async (_, make, key, message) => {
    const deviceId = await make();
    const before = await targetsOf(deviceId);
    const response = await api.send(
      'PATCH',
      `/device(${deviceId})`,
      { should_be_operated_by__release: id(key), note: 'not written' },
      'developer',
    );
    expect(response.status, response.text).toBe(400);
    expect(response.text).toContain(message);
    expect(await targetsOf(deviceId)).toEqual(before);
    const { rows } = await db.query<{ note: string | null }>(
      'SELECT "note" FROM "device" WHERE "id" = $1',
      [deviceId],
    );
    expect(rows[0]?.note).toBeNull();
  });

  it('lets a dev device take a dev or a unified image', async () => {
    const deviceId = await device('balenaOS 6.0.13', 'dev');
    for (const key of ['os raspberrypi4-64 6.1.0 dev', 'os raspberrypi4-64 6.5.0']) {
      const response = await api.send(
        'PATCH',
        `/device(${deviceId})`,
        { should_be_operated_by__release: id(key) },
        'developer',
      );
      expect(response.status, response.text).toBe(200);
      expect((await targetsOf(deviceId)).os).toBe(id(key));
    }
  });

  it.each([
    [
      'an older supervisor release',
      'supervisor aarch64 16.0.0',
      'Supervisor downgrades are not allowed: gateway runs 16.2.0, the target is 16.0.0',
    ],
    [
      "another architecture's release",
      'supervisor armv7hf 16.4.0',
      'is not a supervisor release for the aarch64 architecture of raspberrypi4-64',
    ],
    [
      'an invalidated release',
      'supervisor aarch64 16.5.0',
      'Supervisor release 16.5.0 cannot be targeted',
    ],
    [
      'a host OS release',
      'os raspberrypi4-64 6.1.0 prod',
      'is not a supervisor release for the aarch64 architecture',
    ],
  ])('refuses %s as the supervisor target and writes nothing', async (_, key, message) => {
    const deviceId = await device();
    const before = await targetsOf(deviceId);
    const response = await api.send(
      'PATCH',
      `/device(${deviceId})`,
      { should_be_managed_by__release: id(key) },
      'developer',
    );
    expect(response.status, response.text).toBe(400);
    expect(response.text).toContain(message);
    expect(await targetsOf(deviceId)).toEqual(before);
  });

  it('judges the targets a new device is created with', async () => {
    const { rows } = await db.query<{ id: number }>(
      `SELECT "id" FROM "device_type" WHERE "slug" = 'raspberrypi4-64'`,
    );
    const deviceType = rows[0]?.id;
    const create = (body: Record<string, unknown>) =>
      api.send(
        'POST',
        '/device',
        {
          uuid: randomBytes(16).toString('hex'),
          device_name: 'created',
          belongs_to__application: fleet.id,
          is_of__device_type: deviceType,
          os_version: 'balenaOS 6.1.0',
          os_variant: 'prod',
          supervisor_version: '16.2.0',
          ...body,
        },
        'developer',
      );
    const count = async () =>
      (
        await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "device" WHERE "device_name" = 'created'`,
        )
      ).rows[0]?.n;
    const downgrade = await create({
      should_be_operated_by__release: id('os raspberrypi4-64 6.0.13 prod'),
    });
    expect(downgrade.status, downgrade.text).toBe(400);
    expect(downgrade.text).toContain('OS downgrades are not allowed');
    const foreign = await create({
      should_be_managed_by__release: id('supervisor armv7hf 16.4.0'),
    });
    expect(foreign.status, foreign.text).toBe(400);
    expect(await count()).toBe(0);
    const valid = await create({ should_be_managed_by__release: id('supervisor aarch64 16.4.0') });
    expect(valid.status, valid.text).toBe(201);
    expect(await count()).toBe(1);
  });

  it('refuses a whole bulk write when one device cannot take the target', async () => {
    const current = await device('balenaOS 6.0.13');
    const newer = await device('balenaOS 6.5.0');
    const response = await api.send(
      'PATCH',
      `/device?$filter=id in (${current},${newer})`,
      { should_be_operated_by__release: id('os raspberrypi4-64 6.1.0 prod') },
      'developer',
    );
    expect(response.status, response.text).toBe(400);
    expect((await targetsOf(current)).os).toBe(id('os raspberrypi4-64 6.0.13 prod'));
  });
});
