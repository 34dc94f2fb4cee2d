import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fx from '../../test-support/fixtures.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import type { CatalogueEntry } from './catalogue-entry.js';
import { importCatalogue, listReleases } from './catalogue-store.js';

// A device that registers or reports the host OS it runs is told to run that host release
// (should_be_operated_by__release), moved forward and never back.

describe('the host release of a device', () => {
  let server: TestServer;
  let provisioningKey: string;
  let fleetId: number;
  const release = new Map<string, number>();

  const os = (
    version: string,
    variant: 'prod' | 'dev' | '',
    deviceType = 'raspberrypi4-64',
  ): CatalogueEntry => ({
    kind: 'os',
    deviceType,
    version,
    variant,
    phase: null,
    knownIssues: null,
    notes: null,
    updaterImage: null,
    invalidated: false,
  });

  beforeAll(async () => {
    server = await startTestServer();
    const organization = await fx.createOrganization(server.db, 'Operators');
    const fleet = await fx.createFleet(server.db, organization, 'Gateways', {
      deviceType: 'raspberrypi4-64',
    });
    fleetId = fleet.id;
    provisioningKey = await createApiKey(server.db, fleet.actorId, { name: 'provisioning' });
    await server.db.transaction((tx) =>
      importCatalogue(tx, {
        releases: [
          os('5.3.21', 'prod'),
          os('5.3.21', 'dev'),
          os('6.0.13', 'prod'),
          os('6.1.0+rev2', ''),
          os('6.0.13', 'prod', 'raspberrypi5'),
        ],
      }),
    );
    for (const entry of await listReleases(server.db)) {
      release.set(`${entry.deviceType} ${entry.rawVersion} ${entry.variant}`, entry.id);
    }
  });
  afterAll(() => server.close());

  const operatedBy = async (uuid: string): Promise<number | null> => {
    const { rows } = await server.db.query<{ release: number | null }>(
      `SELECT "should_be_operated_by__release" AS "release" FROM "device" WHERE "uuid" = $1`,
      [uuid],
    );
    return rows[0]?.release ?? null;
  };

  const register = async (osVersion: string | undefined, osVariant?: string) => {
    const uuid = randomBytes(16).toString('hex');
    const response = await server.app.inject({
      method: 'POST',
      url: '/device/register',
      headers: { authorization: `Bearer ${provisioningKey}` },
      payload: {
        application: fleetId,
        uuid,
        device_type: 'raspberrypi4-64',
        ...(osVersion === undefined ? {} : { os_version: osVersion }),
        ...(osVariant === undefined ? {} : { os_variant: osVariant }),
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return { uuid, key: response.json<{ api_key: string }>().api_key };
  };

  const report = async (
    device: { uuid: string; key: string },
    fields: { os_version: string; os_variant?: string },
  ) => {
    const response = await server.app.inject({
      method: 'PATCH',
      url: '/device/v3/state',
      headers: { authorization: `Bearer ${device.key}` },
      payload: { [device.uuid]: fields },
    });
    expect(response.statusCode, response.body).toBe(200);
    await server.ctx.contacts.flush();
  };

  it('registers with the host release matching its OS version and variant', async () => {
    const device = await register('balenaOS 5.3.21', 'dev');
    expect(await operatedBy(device.uuid)).toBe(release.get('raspberrypi4-64 5.3.21 dev'));
    const prod = await register('balenaOS 6.0.13', 'prod');
    expect(await operatedBy(prod.uuid)).toBe(release.get('raspberrypi4-64 6.0.13 prod'));
    // A version the catalogue lacks, or none at all, leaves it unset.
    expect(await operatedBy((await register('balenaOS 4.0.0', 'prod')).uuid)).toBeNull();
    expect(await operatedBy((await register(undefined)).uuid)).toBeNull();
  });

  it('moves forward when the device reports a newer OS, never back', async () => {
    const device = await register('balenaOS 5.3.21', 'prod');
    expect(await operatedBy(device.uuid)).toBe(release.get('raspberrypi4-64 5.3.21 prod'));
    await report(device, { os_version: 'balenaOS 6.1.0+rev2', os_variant: 'prod' });
    // A release without a variant matches either.
    expect(await operatedBy(device.uuid)).toBe(release.get('raspberrypi4-64 6.1.0+rev2 '));
    await report(device, { os_version: 'balenaOS 6.0.13', os_variant: 'prod' });
    expect(await operatedBy(device.uuid)).toBe(release.get('raspberrypi4-64 6.1.0+rev2 '));
  });
});
