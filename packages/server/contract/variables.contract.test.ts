import type { BalenaSDK } from 'balena-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { seedDemoRelease } from '../src/features/demo/demo-release.js';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import {
  createFleet,
  createOrganization,
  expectBalenaError,
  failureOf,
  registerUser,
} from './contract-helpers.js';

// Issue 11: service variables and device service variables through balena-sdk (the fleet and
// device kinds are in applications/devices.contract.test.ts), and every kind reaching the
// device's target state, each change giving the device a new ETag.
describe('variables: balena-sdk service and device service variables, target state', () => {
  let server: TestServer;
  let sdk: BalenaSDK;
  let fleet: Awaited<ReturnType<typeof createFleet>>;
  let services: { main: number; proxy: number };
  let device: { id: number; uuid: string; key: string };

  const serviceId = async (name: string): Promise<number> => {
    const { rows } = await server.ctx.db.query<{ id: number }>(
      `SELECT "id" FROM "service" WHERE "application" = $1 AND "service_name" = $2`,
      [fleet.id, name],
    );
    const id = rows[0]?.id;
    if (id === undefined) throw new Error(`no service ${name}`);
    return id;
  };

  // The device's target state as its agent polls it, with the ETag it got last time.
  const poll = async (etag?: string) => {
    const response = await fetch(`${server.url}/device/v3/${device.uuid}/state`, {
      headers: {
        authorization: `Bearer ${device.key}`,
        ...(etag === undefined ? {} : { 'if-none-match': etag }),
      },
    });
    const body: unknown = response.status === 200 ? await response.json() : null;
    return { status: response.status, etag: response.headers.get('etag') ?? '', body };
  };

  const stringMap = z.record(z.string(), z.string());
  const targetSchema = z.record(
    z.string(),
    z.object({
      config: stringMap,
      apps: z.record(
        z.string(),
        z.object({
          releases: z.record(
            z.string(),
            z.object({
              services: z.record(z.string(), z.object({ environment: stringMap })),
            }),
          ),
        }),
      ),
    }),
  );

  // The device's configuration and each service's environment in a v3 target state.
  const targetOf = (body: unknown) => {
    const target = targetSchema.parse(body)[device.uuid];
    const release = Object.values(Object.values(target?.apps ?? {})[0]?.releases ?? {})[0];
    return {
      config: target?.config ?? {},
      environment: (name: string) => release?.services[name]?.environment ?? {},
    };
  };

  beforeAll(async () => {
    server = await startTestServer();
    sdk = (await registerUser(server.url, 'variables')).sdk;
    const org = await createOrganization(sdk, 'Variables org');
    fleet = await createFleet(sdk, org.id, 'variables');
    // A release with services main and proxy, as a build would leave it.
    await seedDemoRelease(server.ctx.db, fleet.id);
    services = { main: await serviceId('main'), proxy: await serviceId('proxy') };
    const uuid = sdk.models.device.generateUniqueKey();
    const registration = await sdk.models.device.register(fleet.id, uuid);
    device = { id: registration.id, uuid, key: registration.api_key };
    // The device runs main (its agent reported it); proxy is not installed.
    await server.ctx.db.query(
      `INSERT INTO "service_install" ("device", "installs__service") VALUES ($1, $2)`,
      [device.id, services.main],
    );
  });

  afterAll(async () => {
    await server?.close();
  });

  it('service variables: set, get, overwrite, list, remove', async () => {
    const serviceVar = sdk.models.service.var;
    await serviceVar.set(services.main, 'GREETING', 'hello');
    await serviceVar.set({ application: fleet.id, service_name: 'proxy' }, 'PORT', '80');
    expect(await serviceVar.get(services.main, 'GREETING')).toBe('hello');
    await serviceVar.set(services.main, 'GREETING', 'bonjour');
    expect(await serviceVar.get(services.main, 'GREETING')).toBe('bonjour');
    expect((await serviceVar.getAllByService(services.main)).map((v) => [v.name, v.value])).toEqual(
      [['GREETING', 'bonjour']],
    );
    expect((await serviceVar.getAllByApplication(fleet.id)).map((v) => v.name).sort()).toEqual([
      'GREETING',
      'PORT',
    ]);
    await serviceVar.remove(services.main, 'GREETING');
    await serviceVar.remove(services.proxy, 'PORT');
    expect(await serviceVar.getAllByApplication(fleet.id)).toEqual([]);
  });

  it('device service variables: set, get, overwrite, list, remove; a service it does not run is not found', async () => {
    const serviceVar = sdk.models.device.serviceVar;
    await serviceVar.set(device.uuid, services.main, 'MODE', 'fast');
    expect(await serviceVar.get(device.uuid, services.main, 'MODE')).toBe('fast');
    await serviceVar.set(device.uuid, 'main', 'MODE', 'slow');
    expect(await serviceVar.get(device.id, 'main', 'MODE')).toBe('slow');
    expect((await serviceVar.getAllByDevice(device.uuid)).map((v) => [v.name, v.value])).toEqual([
      ['MODE', 'slow'],
    ]);
    expect((await serviceVar.getAllByApplication(fleet.id)).map((v) => v.name)).toEqual(['MODE']);
    await expectBalenaError(
      serviceVar.set(device.uuid, services.proxy, 'MODE', 'x'),
      'BalenaServiceNotFound',
    );
    await serviceVar.remove(device.uuid, services.main, 'MODE');
    expect(await serviceVar.getAllByDevice(device.uuid)).toEqual([]);
  });

  it('every kind of variable reaches the target state, each change with a new ETag', async () => {
    let last = await poll();
    expect(last.status).toBe(200);
    expect((await poll(last.etag)).status).toBe(304);
    // Each step: the change, then what the device's main service (or config) must hold.
    const steps: [string, () => Promise<unknown>, (target: ReturnType<typeof targetOf>) => void][] =
      [
        [
          'fleet variable',
          () => sdk.models.application.envVar.set(fleet.id, 'LEVEL', 'fleet'),
          (target) => expect(target.environment('main')).toMatchObject({ LEVEL: 'fleet' }),
        ],
        [
          'service variable',
          () => sdk.models.service.var.set(services.main, 'LEVEL', 'service'),
          (target) => {
            expect(target.environment('main')).toMatchObject({ LEVEL: 'service' });
            expect(target.environment('proxy')).toMatchObject({ LEVEL: 'fleet' });
          },
        ],
        [
          'device variable',
          () => sdk.models.device.envVar.set(device.uuid, 'LEVEL', 'device'),
          (target) => expect(target.environment('proxy')).toMatchObject({ LEVEL: 'device' }),
        ],
        [
          'device service variable',
          () => sdk.models.device.serviceVar.set(device.uuid, services.main, 'LEVEL', 'mine'),
          (target) => {
            expect(target.environment('main')).toMatchObject({ LEVEL: 'mine' });
            expect(target.environment('proxy')).toMatchObject({ LEVEL: 'device' });
          },
        ],
        [
          'fleet configuration variable',
          () => sdk.models.application.configVar.set(fleet.id, 'BALENA_SUPERVISOR_DELTA', '0'),
          (target) => expect(target.config).toMatchObject({ BALENA_SUPERVISOR_DELTA: '0' }),
        ],
        [
          'device configuration variable',
          () => sdk.models.device.configVar.set(device.uuid, 'BALENA_SUPERVISOR_DELTA', '1'),
          (target) => expect(target.config).toMatchObject({ BALENA_SUPERVISOR_DELTA: '1' }),
        ],
        [
          'removed device service variable',
          () => sdk.models.device.serviceVar.remove(device.uuid, services.main, 'LEVEL'),
          (target) => expect(target.environment('main')).toMatchObject({ LEVEL: 'device' }),
        ],
      ];
    for (const [label, change, check] of steps) {
      await change();
      // The change reaches this process's ETag cache by a database notification, a moment after
      // the write's commit (target-state-cache.ts): until then a poll may still answer 304.
      await server.ctx.notifications.sync();
      const next = await poll(last.etag);
      expect(next.status, `${label}: a new target`).toBe(200);
      expect(next.etag, label).not.toBe(last.etag);
      check(targetOf(next.body));
      expect((await poll(next.etag)).status, `${label}: then unchanged`).toBe(304);
      last = next;
    }
  });

  it('refuses names the console refuses, in our words', async () => {
    const error = await failureOf(sdk.models.application.envVar.set(fleet.id, '_HIDDEN', 'x'));
    expect(error.statusCode).toBe(400);
    expect(error.message).toMatch(/must start with a letter/);
    // Configuration names may hold colons.
    await sdk.models.application.configVar.set(fleet.id, 'BALENA_HOST_CONFIG_gpio:4', 'op');
    expect(await sdk.models.application.configVar.get(fleet.id, 'BALENA_HOST_CONFIG_gpio:4')).toBe(
      'op',
    );
  });
});
