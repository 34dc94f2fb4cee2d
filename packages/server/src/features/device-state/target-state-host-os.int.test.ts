import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, SqlValue } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import {
  devicePolls,
  type PollingProcess,
  startPollingProcesses,
} from '../../test-support/target-state-processes.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import { catalogueFile } from '../host-os/catalogue-entry.js';
import { importCatalogue, listReleases } from '../host-os/catalogue-store.js';

// A device told to run a host OS release (should_be_operated_by__release) finds it in its target
// state, as balena lists it: the host app, `is_host`, with that release and its updater image. A
// change of the release, of its image or of the host app reaches the next poll on every process;
// polls of an unchanged target stay 304 from memory.

type HostEntry = { is_host: boolean; releases: Record<string, { id: number }> };

describe('target state: the host OS release', () => {
  let db: Database;
  let processes: PollingProcess[];
  let polls: ReturnType<typeof devicePolls>;
  let device: fx.DeviceFixture;
  const release = new Map<string, number>();

  const id = (version: string): number => {
    const found = release.get(version);
    if (found === undefined) throw new Error(`no catalogue release ${version}`);
    return found;
  };

  const hostEntries = async (): Promise<HostEntry[]> => {
    const { body } = await polls.fresh();
    const apps = (body as Record<string, { apps: Record<string, HostEntry> }>)[device.uuid]?.apps;
    return Object.values(apps ?? {}).filter((app) => app.is_host);
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    processes = await startPollingProcesses(db, ['A', 'B']);
    const org = await fx.createOrganization(db, 'Host OS');
    const fleet = await fx.createFleet(db, org, 'Hosted', { deviceType: 'raspberrypi4-64' });
    const file = catalogueFile.parse({
      releases: ['6.0.13', '6.1.0'].map((version) => ({
        kind: 'os',
        deviceType: 'raspberrypi4-64',
        version,
        variant: 'prod',
        updaterImage: `registry.example/balena-os/raspberrypi4-64:${version}`,
      })),
    });
    await db.transaction((tx) => importCatalogue(tx, file));
    for (const entry of await listReleases(db)) release.set(entry.version, entry.id);
    device = await fx.createDevice(db, fleet.id, 'hosted');
    // Reporting the OS it runs tells the device to run that release (0040).
    await db.query(
      `UPDATE "device" SET "os_version" = 'balenaOS 6.0.13', "os_variant" = 'prod' WHERE "id" = $1`,
      [device.id],
    );
    polls = devicePolls(
      db,
      processes,
      device,
      await createApiKey(db, device.actorId, { name: 'd' }),
    );
  });

  afterAll(async () => {
    for (const { app } of processes ?? []) await app.close();
    await db?.close();
  });

  it('lists the host app with the release to run and its updater image', async () => {
    const response = await polls.poll(processes[0] as PollingProcess);
    expect(response.statusCode, response.body).toBe(200);
    const apps =
      response.json<Record<string, { apps: Record<string, unknown> }>>()[device.uuid]?.apps;
    const host = Object.values(apps ?? {}).find(
      (app) => typeof app === 'object' && app !== null && 'is_host' in app && app.is_host === true,
    );
    expect(host).toMatchObject({
      name: 'raspberrypi4-64',
      is_host: true,
      releases: expect.any(Object),
    });
    const [entry] = await hostEntries();
    const [commitRelease] = Object.values(entry?.releases ?? {});
    expect(commitRelease).toMatchObject({
      id: id('6.0.13'),
      raw_version: '6.0.13',
      services: {
        hostapp: { image: 'registry.example/balena-os/raspberrypi4-64:6.0.13' },
      },
    });
  });

  const sql =
    (text: string, ...params: SqlValue[]) =>
    async () => {
      await db.query(text, params);
    };

  it('answers the new target on both processes when the host release changes', async () => {
    const changes = [
      {
        name: 'told to run a newer OS release',
        apply: sql(
          `UPDATE "device" SET "should_be_operated_by__release" = $2 WHERE "id" = $1`,
          device.id,
          id('6.1.0'),
        ),
      },
      {
        name: 'updater image moved',
        apply: sql(
          `UPDATE "image" SET "is_stored_at__image_location" = 'mirror.example/os:6.1.0'
            WHERE "id" IN (SELECT "image" FROM "release_image" WHERE "is_part_of__release" = $1)`,
          id('6.1.0'),
        ),
      },
      {
        name: 'host app renamed',
        apply: sql(
          `UPDATE "application" SET "app_name" = 'Raspberry Pi 4 OS'
            WHERE "id" = (SELECT "belongs_to__application" FROM "release" WHERE "id" = $1)`,
          id('6.1.0'),
        ),
      },
      {
        name: 'no OS release to run',
        apply: sql(
          `UPDATE "device" SET "should_be_operated_by__release" = NULL WHERE "id" = $1`,
          device.id,
        ),
      },
    ];
    for (const change of changes) {
      const etag = await polls.primeAll();
      await change.apply();
      await polls.syncAll();
      await expect
        .soft(polls.expectCurrent(change.name, etag, true), change.name)
        .resolves.toBeUndefined();
    }
    expect(await hostEntries()).toEqual([]);
  });
});
