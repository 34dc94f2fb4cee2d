import { deviceKeyWritableFields } from '@flotilla/shared/permissions/field-permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Field } from '../../model/model-types.js';
import { v7Model } from '../../model/v7-model.js';
import * as fx from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  deviceActor,
  type ODataTestApp,
  provisioningActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import type { Database } from '../db/database.js';

// A device key writes only what a device reports about itself; a provisioning key creates
// devices with registration fields only. Everything else is a 401 and nothing is written.

const deviceFields = [...(v7Model.resources.get('device')?.fields.values() ?? [])].filter(
  (field) =>
    field.name === field.column &&
    !field.readOnly &&
    !field.computed &&
    !field.hidden &&
    !field.createOnly,
);
const allowedOnDevice = deviceKeyWritableFields.device?.update ?? [];

describe('what API keys may write through /v7', () => {
  let db: Database;
  let api: ODataTestApp;
  let fleet: fx.FleetFixture;
  let publicFleet: fx.FleetFixture;
  let device: fx.DeviceFixture;
  let release: number;
  let otherDeviceType: number;
  let owner: fx.UserFixture;

  const valueFor = (field: Field): unknown => {
    const special: Record<string, unknown> = {
      // The reported attack: into another organization's public fleet.
      belongs_to__application: publicFleet.id,
      is_of__device_type: otherDeviceType,
      belongs_to__user: owner.userId,
      is_active: false,
      update_status: 'done',
      is_managed_by__service_instance: null,
      // Coordinates are validated (device-hooks.ts).
      latitude: '52.52',
      longitude: '13.405',
    };
    if (field.name in special) return special[field.name];
    if (field.references === 'release') return release;
    switch (field.type) {
      case 'text':
        return `set-${field.name}`;
      case 'boolean':
        return true;
      case 'date':
        return '2031-01-01T00:00:00.000Z';
      case 'real':
        return 1.5;
      case 'json':
        return { set: true };
      default:
        return 42;
    }
  };

  const deviceRow = async (): Promise<Record<string, unknown>> => {
    const { rows } = await db.query<{ row: Record<string, unknown> }>(
      'SELECT row_to_json(d) AS row FROM "device" d WHERE d."id" = $1',
      [device.id],
    );
    return rows[0]?.row ?? {};
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    owner = await fx.createUser(db, 'owner');
    const org = await fx.createOrganization(db, 'Keys');
    const strangers = await fx.createOrganization(db, 'Strangers');
    fleet = await fx.createFleet(db, org, 'Mine');
    publicFleet = await fx.createFleet(db, strangers, 'Open', { isPublic: true });
    await fx.setFleetEnvVar(db, publicFleet.id, 'SECRET', 'do-not-read');
    device = await fx.createDevice(db, fleet.id, 'reporter');
    release = await fx.createRelease(db, fleet.id, 'c0ffee');
    const { rows } = await db.query<{ id: number }>(
      `SELECT "id" FROM "device_type" WHERE "slug" <> 'raspberrypi4-64' ORDER BY "id" LIMIT 1`,
    );
    otherDeviceType = rows[0]?.id ?? 0;
    api.actors.set('device', deviceActor(device, fleet.id));
    api.actors.set('provisioning', provisioningActor(fleet));
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  it('lists only writable device fields (the table cannot name a field that does not exist)', () => {
    const writable = deviceFields.map((field) => field.name);
    for (const name of allowedOnDevice) expect(writable).toContain(name);
    expect(writable.filter((name) => !allowedOnDevice.includes(name)).length).toBeGreaterThan(5);
  });

  it.each(deviceFields.filter((field) => !allowedOnDevice.includes(field.name)))(
    'refuses a device key $name on its own device, single and bulk, writing nothing',
    async (field) => {
      const before = await deviceRow();
      const body = { [field.name]: valueFor(field) };
      for (const path of [`/device(${device.id})`, `/device?$filter=id eq ${device.id}`]) {
        const response = await api.send('PATCH', path, body, 'device');
        expect(response.status, response.text).toBe(401);
        expect(response.text).toContain(`'${field.name}'`);
      }
      // Smuggled next to a field it may write, the whole write is refused.
      const mixed = await api.send(
        'PATCH',
        `/device(${device.id})`,
        { ...body, cpu_temp: 99 },
        'device',
      );
      expect(mixed.status).toBe(401);
      expect(await deviceRow()).toEqual(before);
    },
  );

  it.each(deviceFields.filter((field) => allowedOnDevice.includes(field.name)))(
    'lets a device key write $name of its own device',
    async (field) => {
      const value = valueFor(field);
      const response = await api.send(
        'PATCH',
        `/device(${device.id})`,
        { [field.name]: value },
        'device',
      );
      expect(response.status, response.text).toBe(200);
      const stored = (await deviceRow())[field.column];
      expect(field.type === 'date' ? new Date(String(stored)).toISOString() : stored).toEqual(
        value,
      );
    },
  );

  it('keeps a device out of a public fleet and so out of its variables', async () => {
    const moved = await api.send(
      'PATCH',
      `/device(${device.id})`,
      { belongs_to__application: publicFleet.id },
      'device',
    );
    expect(moved.status).toBe(401);
    const { rows } = await db.query<{ app: number }>(
      'SELECT "belongs_to__application" AS app FROM "device" WHERE "id" = $1',
      [device.id],
    );
    expect(rows[0]?.app).toBe(fleet.id);
  });

  it('lets a device key report config variables once, never change or remove them', async () => {
    const posted = await api.send(
      'POST',
      '/device_config_variable',
      { device: device.id, name: 'BALENA_SUPERVISOR_POLL_INTERVAL', value: '600000' },
      'device',
    );
    expect(posted.status, posted.text).toBe(201);
    const id = (posted.body as { id: number }).id;
    const again = await api.send(
      'POST',
      '/device_config_variable',
      { device: device.id, name: 'BALENA_SUPERVISOR_POLL_INTERVAL', value: '1' },
      'device',
    );
    expect(again.status).toBe(409);
    expect(
      (await api.send('PATCH', `/device_config_variable(${id})`, { value: '1' }, 'device')).status,
    ).toBe(401);
    expect(
      (await api.send('DELETE', `/device_config_variable(${id})`, undefined, 'device')).status,
    ).toBe(401);
    const { rows } = await db.query<{ value: string }>(
      'SELECT "value" FROM "device_config_variable" WHERE "id" = $1',
      [id],
    );
    expect(rows).toEqual([{ value: '600000' }]);
  });

  it('leaves installs to the server: a device key cannot write them', async () => {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO "service" ("application", "service_name") VALUES ($1, 'main') RETURNING "id"`,
      [fleet.id],
    );
    const service = rows[0]?.id ?? 0;
    const install = await api.send(
      'POST',
      '/service_install',
      { device: device.id, installs__service: service },
      'device',
    );
    expect(install.status).toBe(401);
    const count = await db.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM "service_install" WHERE "device" = $1',
      [device.id],
    );
    expect(count.rows[0]?.n).toBe(0);
  });

  it('lets a device key manage its own tags', async () => {
    const created = await api.send(
      'POST',
      '/device_tag',
      { device: device.id, tag_key: 'room', value: 'lab' },
      'device',
    );
    expect(created.status, created.text).toBe(201);
    const id = (created.body as { id: number }).id;
    expect(
      (await api.send('PATCH', `/device_tag(${id})`, { value: 'hall' }, 'device')).status,
    ).toBe(200);
    expect((await api.send('DELETE', `/device_tag(${id})`, undefined, 'device')).status).toBe(200);
  });

  it('lets a provisioning key create a device with registration fields only', async () => {
    const registration = {
      uuid: 'ab'.repeat(16),
      device_name: 'fresh',
      belongs_to__application: fleet.id,
      is_of__device_type: otherDeviceType,
      os_version: 'balenaOS 6.0.0',
    };
    for (const extra of [
      { is_web_accessible: true },
      { belongs_to__user: owner.userId },
      { is_accessible_by_support_until__date: '2031-01-01T00:00:00.000Z' },
    ]) {
      const refused = await api.send(
        'POST',
        '/device',
        { ...registration, ...extra },
        'provisioning',
      );
      expect(refused.status, refused.text).toBe(401);
    }
    const count = await db.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM "device" WHERE "uuid" = $1',
      [registration.uuid],
    );
    expect(count.rows[0]?.n).toBe(0);
    const created = await api.send('POST', '/device', registration, 'provisioning');
    expect(created.status, created.text).toBe(201);
  });
});
