import { randomBytes } from 'node:crypto';
import type { BalenaSDK } from 'balena-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import {
  createFleet,
  createOrganization,
  deviceTypeSlug,
  expectBalenaError,
  failureOf,
  registerUser,
  uniqueSuffix,
} from './contract-helpers.js';

type Fleet = Awaited<ReturnType<typeof createFleet>>;

// Releases come from builds, which Flotilla does not run here: insert a successful final one
// straight into the database, as a builder would leave it.
const insertRelease = async (
  server: TestServer,
  applicationId: number,
  createdAt: Date,
): Promise<{ id: number; commit: string }> => {
  const commit = randomBytes(16).toString('hex');
  const { rows } = await server.ctx.db.query<{ id: number }>(
    `INSERT INTO "release"
       ("belongs_to__application", "commit", "status", "source", "is_final", "is_passing_tests",
        "is_invalidated", "created_at", "composition")
     VALUES ($1, $2, 'success', 'cloud', true, true, false, $3, '{}'::jsonb)
     RETURNING "id"`,
    [applicationId, commit, createdAt],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('release insert returned no id');
  return { id, commit };
};

describe('applications: balena-sdk application model against Flotilla', () => {
  let server: TestServer;
  let sdk: BalenaSDK;
  let org: Awaited<ReturnType<typeof createOrganization>>;
  let deviceTypeId: number;
  // A fleet shared by the read-only tests; mutating tests create their own.
  let fleet: Fleet;

  beforeAll(async () => {
    server = await startTestServer();
    sdk = (await registerUser(server.url, 'apps')).sdk;
    org = await createOrganization(sdk, 'Apps org');
    deviceTypeId = (await sdk.models.deviceType.get(deviceTypeSlug, { $select: 'id' })).id;
    fleet = await createFleet(sdk, org.id, 'shared');
  });

  afterAll(async () => {
    await server?.close();
  });

  it('deviceType.get resolves the slug through its aliases', async () => {
    const dt = await sdk.models.deviceType.get(deviceTypeSlug);
    expect(dt).toMatchObject({ id: deviceTypeId, slug: deviceTypeSlug });
    expect(typeof dt.name).toBe('string');
  });

  it('create answers with the new fleet: name, slug, uuid, device type, organization', async () => {
    const name = `created-${uniqueSuffix()}`;
    const created = await sdk.models.application.create({
      name,
      deviceType: deviceTypeSlug,
      organization: org.handle,
    });
    expect(Number.isInteger(created.id)).toBe(true);
    expect(created.app_name).toBe(name);
    expect(created.slug).toBe(`${org.handle}/${name}`.toLowerCase());
    expect(created.uuid).toMatch(/^[0-9a-f]{32}$/);
    expect(created.is_for__device_type).toEqual({ __id: deviceTypeId });
    expect(created.organization).toEqual({ __id: org.id });
    expect(created.is_of__class).toBe('fleet');
    expect(created.should_track_latest_release).toBe(true);
    expect(created.should_be_running__release).toBeNull();
  });

  it('create with a name already used in the organization is a 409 conflict', async () => {
    const error = await failureOf(
      sdk.models.application.create({
        name: fleet.name,
        deviceType: deviceTypeSlug,
        organization: org.id,
      }),
    );
    expect(error.statusCode).toBe(409);
    expect(error.message).toMatch(/unique/i);
  });

  it('create for an unknown device type fails before posting', async () => {
    await expectBalenaError(
      sdk.models.application.create({
        name: `nodt-${uniqueSuffix()}`,
        deviceType: 'no-such-device-type',
        organization: org.id,
      }),
      'BalenaInvalidDeviceType',
    );
  });

  it('get by id, by slug and by uuid return the same fleet', async () => {
    const byId = await sdk.models.application.get(fleet.id);
    const bySlug = await sdk.models.application.get(fleet.slug);
    const byUuid = await sdk.models.application.get(fleet.uuid);
    expect(byId).toMatchObject({
      id: fleet.id,
      app_name: fleet.name,
      slug: fleet.slug,
      uuid: fleet.uuid,
      organization: { __id: org.id },
      is_for__device_type: { __id: deviceTypeId },
    });
    expect(bySlug).toEqual(byId);
    expect(byUuid).toEqual(byId);
    // The SDK lower-cases slugs before asking.
    expect((await sdk.models.application.get(fleet.slug.toUpperCase(), { $select: 'id' })).id).toBe(
      fleet.id,
    );
  });

  it('get with $select and $expand returns just those fields, expansions as arrays', async () => {
    const app = await sdk.models.application.get(fleet.id, {
      $select: ['id', 'app_name'],
      $expand: {
        organization: { $select: ['id', 'handle'] },
        is_for__device_type: { $select: 'slug' },
      },
    });
    expect(app).toEqual({
      id: fleet.id,
      app_name: fleet.name,
      organization: [{ id: org.id, handle: org.handle }],
      is_for__device_type: [{ slug: deviceTypeSlug }],
    });
  });

  it('getAll, getAllByOrganization and getAllDirectlyAccessible list the fleet', async () => {
    const otherOrg = await createOrganization(sdk, 'Other apps org');
    const otherFleet = await createFleet(sdk, otherOrg.id, 'other');
    const all = await sdk.models.application.getAll();
    expect(all.map((app) => app.id)).toEqual(expect.arrayContaining([fleet.id, otherFleet.id]));
    expect(all.find((app) => app.id === fleet.id)?.slug).toBe(fleet.slug);

    const inOrg = await sdk.models.application.getAllByOrganization(org.handle);
    expect(inOrg.map((app) => app.id)).toContain(fleet.id);
    expect(inOrg.map((app) => app.id)).not.toContain(otherFleet.id);
    expect(new Set(inOrg.map((app) => JSON.stringify(app.organization)))).toEqual(
      new Set([JSON.stringify({ __id: org.id })]),
    );

    const direct = await sdk.models.application.getAllDirectlyAccessible();
    expect(direct.map((app) => app.id)).toEqual(expect.arrayContaining([fleet.id, otherFleet.id]));
    expect(await sdk.models.application.hasAny()).toBe(true);
    expect(await sdk.models.application.has(fleet.slug)).toBe(true);
    expect(await sdk.models.application.has(`${org.handle}/missing-${uniqueSuffix()}`)).toBe(false);
  });

  it('rename changes app_name and the slug; the old slug is gone', async () => {
    const own = await createFleet(sdk, org.id, 'rename');
    const newName = `renamed-${uniqueSuffix()}`;
    await sdk.models.application.rename(own.id, newName);
    const reread = await sdk.models.application.get(own.id);
    expect(reread.app_name).toBe(newName);
    expect(reread.slug).toBe(`${org.handle}/${newName}`.toLowerCase());
    expect((await sdk.models.application.get(reread.slug, { $select: 'id' })).id).toBe(own.id);
    await expectBalenaError(sdk.models.application.get(own.slug), 'BalenaApplicationNotFound');
  });

  it('rename to an invalid name is refused and leaves the fleet unchanged', async () => {
    const own = await createFleet(sdk, org.id, 'badname');
    const error = await failureOf(sdk.models.application.rename(own.id, 'x'));
    expect(error.statusCode).toBe(400);
    expect((await sdk.models.application.get(own.id)).app_name).toBe(own.name);
  });

  it('tags: set, overwrite (409 then PATCH), list, remove', async () => {
    const tags = sdk.models.application.tags;
    await tags.set(fleet.id, 'EDITOR', 'vim');
    await tags.set(fleet.slug, 'SHELL', 'zsh');
    let all = await tags.getAllByApplication(fleet.id);
    expect(all.map((tag) => [tag.tag_key, tag.value])).toEqual([
      ['EDITOR', 'vim'],
      ['SHELL', 'zsh'],
    ]);
    expect(all[0]?.application).toEqual({ __id: fleet.id });

    // The second set of an existing key is the POST-409-PATCH upsert.
    await tags.set(fleet.id, 'EDITOR', 'emacs');
    all = await tags.getAllByApplication(fleet.slug);
    expect(all.map((tag) => [tag.tag_key, tag.value])).toEqual([
      ['EDITOR', 'emacs'],
      ['SHELL', 'zsh'],
    ]);

    await tags.remove(fleet.id, 'EDITOR');
    all = await tags.getAllByApplication(fleet.id);
    expect(all.map((tag) => [tag.tag_key, tag.value])).toEqual([['SHELL', 'zsh']]);
  });

  it('environment variables: set, get, overwrite, list, remove', async () => {
    const envVar = sdk.models.application.envVar;
    expect(await envVar.get(fleet.id, 'MISSING_VAR')).toBeUndefined();
    await envVar.set(fleet.id, 'GREETING', 'hello');
    await envVar.set(fleet.slug, 'COUNT', '3');
    expect(await envVar.get(fleet.id, 'GREETING')).toBe('hello');
    expect(await envVar.get(fleet.slug, 'COUNT')).toBe('3');

    await envVar.set(fleet.id, 'GREETING', 'bonjour');
    expect(await envVar.get(fleet.id, 'GREETING')).toBe('bonjour');
    const all = await envVar.getAllByApplication(fleet.id);
    expect(all.map((v) => [v.name, v.value])).toEqual([
      ['COUNT', '3'],
      ['GREETING', 'bonjour'],
    ]);
    expect(
      all.every((v) => JSON.stringify(v.application) === JSON.stringify({ __id: fleet.id })),
    ).toBe(true);

    await envVar.remove(fleet.id, 'GREETING');
    expect(await envVar.get(fleet.id, 'GREETING')).toBeUndefined();
    expect((await envVar.getAllByApplication(fleet.id)).map((v) => v.name)).toEqual(['COUNT']);
  });

  it('configuration variables: set, get, overwrite, list, remove', async () => {
    const configVar = sdk.models.application.configVar;
    await configVar.set(fleet.id, 'BALENA_SUPERVISOR_POLL_INTERVAL', '900000');
    await configVar.set(fleet.slug, 'RESIN_HOST_CONFIG_gpu_mem', '128');
    expect(await configVar.get(fleet.id, 'BALENA_SUPERVISOR_POLL_INTERVAL')).toBe('900000');

    await configVar.set(fleet.id, 'BALENA_SUPERVISOR_POLL_INTERVAL', '600000');
    expect(await configVar.get(fleet.slug, 'BALENA_SUPERVISOR_POLL_INTERVAL')).toBe('600000');
    const all = await configVar.getAllByApplication(fleet.id);
    expect(all.map((v) => [v.name, v.value])).toEqual([
      ['BALENA_SUPERVISOR_POLL_INTERVAL', '600000'],
      ['RESIN_HOST_CONFIG_gpu_mem', '128'],
    ]);

    await configVar.remove(fleet.id, 'RESIN_HOST_CONFIG_gpu_mem');
    expect(await configVar.get(fleet.id, 'RESIN_HOST_CONFIG_gpu_mem')).toBeUndefined();
    expect((await configVar.getAllByApplication(fleet.id)).map((v) => v.name)).toEqual([
      'BALENA_SUPERVISOR_POLL_INTERVAL',
    ]);
    // Config and environment variables are separate collections.
    expect(
      (await sdk.models.application.envVar.getAllByApplication(fleet.id)).map((v) => v.name),
    ).not.toContain('BALENA_SUPERVISOR_POLL_INTERVAL');
  });

  it('a configuration variable must be named BALENA_* or RESIN_*', async () => {
    const own = await createFleet(sdk, org.id, 'confignames');
    const error = await failureOf(
      sdk.models.application.configVar.set(own.id, 'POLL_INTERVAL', '1'),
    );
    expect(error.statusCode).toBe(400);
    expect(await sdk.models.application.configVar.getAllByApplication(own.id)).toEqual([]);
  });

  it('an environment variable may not be named BALENA_* or RESIN_*', async () => {
    const own = await createFleet(sdk, org.id, 'envnames');
    const error = await failureOf(
      sdk.models.application.envVar.set(own.id, 'BALENA_SUPERVISOR_POLL_INTERVAL', '1'),
    );
    expect(error.statusCode).toBe(400);
    expect(await sdk.models.application.envVar.getAllByApplication(own.id)).toEqual([]);
  });

  it('pinToRelease, trackLatestRelease and isTrackingLatestRelease follow the releases', async () => {
    const own = await createFleet(sdk, org.id, 'releases');
    // A fleet without releases tracks "the latest" trivially.
    expect(await sdk.models.application.isTrackingLatestRelease(own.id)).toBe(true);
    const older = await insertRelease(server, own.id, new Date(Date.now() - 60_000));
    const newer = await insertRelease(server, own.id, new Date());

    await sdk.models.application.pinToRelease(own.id, older.commit);
    expect(await sdk.models.application.willTrackNewReleases(own.id)).toBe(false);
    expect(await sdk.models.application.isTrackingLatestRelease(own.slug)).toBe(false);
    expect(await sdk.models.application.getTargetReleaseHash(own.id)).toBe(older.commit);
    const pinned = await sdk.models.application.get(own.id, {
      $select: ['should_be_running__release', 'should_track_latest_release'],
    });
    expect(pinned).toEqual({
      should_be_running__release: { __id: older.id },
      should_track_latest_release: false,
    });

    await sdk.models.application.trackLatestRelease(own.slug);
    expect(await sdk.models.application.willTrackNewReleases(own.id)).toBe(true);
    expect(await sdk.models.application.isTrackingLatestRelease(own.id)).toBe(true);
    expect(await sdk.models.application.getTargetReleaseHash(own.id)).toBe(newer.commit);
  });

  it('pinToRelease with an unknown commit is BalenaReleaseNotFound and changes nothing', async () => {
    const own = await createFleet(sdk, org.id, 'nopin');
    await expectBalenaError(
      sdk.models.application.pinToRelease(own.id, randomBytes(16).toString('hex')),
      'BalenaReleaseNotFound',
    );
    expect(await sdk.models.application.willTrackNewReleases(own.id)).toBe(true);
  });

  it('remove deletes the fleet: get by id and slug are BalenaApplicationNotFound', async () => {
    const own = await createFleet(sdk, org.id, 'removed');
    await sdk.models.application.tags.set(own.id, 'DOOMED', 'yes');
    await sdk.models.application.remove(own.slug);
    await expectBalenaError(sdk.models.application.get(own.id), 'BalenaApplicationNotFound');
    await expectBalenaError(sdk.models.application.get(own.slug), 'BalenaApplicationNotFound');
    expect((await sdk.models.application.getAll()).map((app) => app.id)).not.toContain(own.id);
    // The fleet's tags went with it.
    const left = await server.ctx.db.query<{ count: number }>(
      'SELECT count(*) AS "count" FROM "application_tag" WHERE "application" = $1',
      [own.id],
    );
    expect(left.rows[0]?.count).toBe(0);
  });

  it('remove by id deletes only that fleet', async () => {
    const kept = await createFleet(sdk, org.id, 'kept');
    const removed = await createFleet(sdk, org.id, 'byid');
    await sdk.models.application.remove(removed.id);
    await expectBalenaError(sdk.models.application.get(removed.id), 'BalenaApplicationNotFound');
    expect((await sdk.models.application.get(kept.id)).app_name).toBe(kept.name);
  });
});
