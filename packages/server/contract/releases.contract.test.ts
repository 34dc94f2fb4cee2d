import { randomBytes } from 'node:crypto';
import type { BalenaSDK } from 'balena-sdk';
import type { PinejsClientCore } from 'pinejs-client-core';
import { releaseRuleMessages } from '@flotilla/shared/releases/release-status';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import {
  createFleet,
  createOrganization,
  deviceTypeSlug,
  failureOf,
  insertDevice,
  registerUser,
} from './contract-helpers.js';
import { deploy } from './deploy-sequence.js';

type Fleet = Awaited<ReturnType<typeof createFleet>>;

// Releases through the unmodified balena-sdk: the request sequence balena-cli's `deploy` runs
// (deploy-sequence.ts), the release rules and their errors, pinning and tracking.
describe('releases: balena-sdk against Flotilla', () => {
  let server: TestServer;
  let sdk: BalenaSDK;
  let userId: number;
  let org: Awaited<ReturnType<typeof createOrganization>>;
  let deviceTypeId: number;

  beforeAll(async () => {
    server = await startTestServer();
    sdk = (await registerUser(server.url, 'releases')).sdk;
    userId = (await sdk.auth.getUserInfo()).id;
    org = await createOrganization(sdk, 'Releases org');
    deviceTypeId = (await sdk.models.deviceType.get(deviceTypeSlug, { $select: 'id' })).id;
  });

  afterAll(async () => {
    await server?.close();
  });

  const targetOf = async (fleet: Fleet): Promise<string | undefined> =>
    (await sdk.models.application.getTargetReleaseHash(fleet.slug)) ?? undefined;

  it('creates a release the way balena deploy does, and a fleet tracking latest runs it', async () => {
    const fleet = await createFleet(sdk, org.id, 'deploy');
    const first = await deploy(sdk, fleet.id, { services: ['main', 'proxy'], semver: '1.0.0' });
    expect(first.release.status).toBe('running');
    for (const image of Object.values(first.images)) {
      expect(image.is_stored_at__image_location).toMatch(
        /^registry\.flotilla\.local\/v2\/[0-9a-f]{32}$/,
      );
    }
    expect(await targetOf(fleet)).toBe(first.release.commit);

    // A second deploy reuses the services (getOrCreate by the composite key).
    const second = await deploy(sdk, fleet.id, { services: ['main'], semver: '1.1.0' });
    expect(second.services.main).toBe(first.services.main);
    expect(await targetOf(fleet)).toBe(second.release.commit);

    const detail = await sdk.models.release.getWithImageDetails(second.release.commit);
    expect(detail.status).toBe('success');
    expect(detail.raw_version).toBe('1.1.0');
    expect(detail.images).toEqual([expect.objectContaining({ service_name: 'main' })]);
    const image = await sdk.models.image.get(second.images.main?.id ?? 0);
    expect(image).toMatchObject({
      status: 'success',
      image_size: 12_345_678,
      dockerfile: 'FROM alpine\n',
      project_type: 'Dockerfile',
    });
    expect(await sdk.models.image.getLogs(image.id)).toBe('Step 1/1 : FROM alpine\n');
    const labels = await sdk.pine.get({
      resource: 'image_label',
      options: {
        $filter: { release_image: { $any: { $alias: 'ri', $expr: { ri: { image: image.id } } } } },
      },
    });
    expect(labels.map((label) => [label.label_name, label.value])).toEqual([
      ['io.balena.features.supervisor-api', '1'],
    ]);
  });

  it('keeps a draft out of the fleet until it is finalized', async () => {
    const fleet = await createFleet(sdk, org.id, 'draft');
    const final = await deploy(sdk, fleet.id, { services: ['main'] });
    const draft = await deploy(sdk, fleet.id, { services: ['main'], draft: true });
    expect(await targetOf(fleet)).toBe(final.release.commit);
    await sdk.models.release.finalize(draft.release.commit);
    expect(await targetOf(fleet)).toBe(draft.release.commit);
    const error = await failureOf(
      sdk.pine.patch({ resource: 'release', id: draft.release.id, body: { is_final: false } }),
    );
    expect(error.message).toContain(releaseRuleMessages.alreadyFinalized);
  });

  it('marks a failed deploy failed, and keeps the fleet where it was', async () => {
    const fleet = await createFleet(sdk, org.id, 'failing');
    const good = await deploy(sdk, fleet.id, { services: ['main'] });
    const bad = await deploy(sdk, fleet.id, { services: ['main'], fail: true });
    const release = await sdk.models.release.get(bad.release.id, { $select: ['status'] });
    expect(release.status).toBe('failed');
    expect(await targetOf(fleet)).toBe(good.release.commit);
    const error = await failureOf(sdk.models.release.setIsInvalidated(bad.release.id, true));
    expect(error.message).toContain(releaseRuleMessages.cannotValidateFailed);
    // The SDK's own pinning looks among successful releases only.
    const pin = await failureOf(
      sdk.models.application.pinToRelease(fleet.slug, bad.release.commit),
    );
    expect(pin.code).toBe('BalenaReleaseNotFound');
    const raw = await failureOf(
      sdk.pine.patch({
        resource: 'application',
        id: fleet.id,
        body: { should_be_running__release: bad.release.id },
      }),
    );
    expect(raw.message).toContain(releaseRuleMessages.onlySuccessfulPinned);
  });

  it('pins and tracks on fleets and devices, refusing invalidated releases', async () => {
    const fleet = await createFleet(sdk, org.id, 'pinning');
    const older = await deploy(sdk, fleet.id, { services: ['main'] });
    const newer = await deploy(sdk, fleet.id, { services: ['main'] });
    const device = await insertDevice(server, { fleetId: fleet.id, deviceTypeId, userId });

    await sdk.models.application.pinToRelease(fleet.slug, older.release.commit);
    expect(await sdk.models.application.isTrackingLatestRelease(fleet.slug)).toBe(false);
    expect(await targetOf(fleet)).toBe(older.release.commit);
    expect(await sdk.models.device.getTargetReleaseHash(device.uuid)).toBe(older.release.commit);

    await sdk.models.device.pinToRelease(device.uuid, newer.release.commit);
    expect(await sdk.models.device.isTrackingApplicationRelease(device.uuid)).toBe(false);
    expect(await sdk.models.device.getTargetReleaseHash(device.uuid)).toBe(newer.release.commit);

    // Neither a pinned nor a targeted release can be deleted.
    for (const id of [older.release.id, newer.release.id]) {
      const refused = await failureOf(sdk.pine.delete({ resource: 'release', id }));
      expect(refused.message).toContain(releaseRuleMessages.cannotDeletePinned);
    }

    await sdk.models.device.trackApplicationRelease(device.uuid);
    expect(await sdk.models.device.getTargetReleaseHash(device.uuid)).toBe(older.release.commit);
    await sdk.models.application.trackLatestRelease(fleet.slug);
    expect(await sdk.models.application.isTrackingLatestRelease(fleet.slug)).toBe(true);
    expect(await targetOf(fleet)).toBe(newer.release.commit);

    // Invalidating the fleet's release moves the fleet and its unpinned device.
    await sdk.models.release.setIsInvalidated(newer.release.commit, true);
    expect(await targetOf(fleet)).toBe(older.release.commit);
    expect(await sdk.models.device.getTargetReleaseHash(device.uuid)).toBe(older.release.commit);
    const pinInvalid = await failureOf(
      sdk.models.device.pinToRelease(device.uuid, newer.release.commit),
    );
    expect(pinInvalid.message).toContain(releaseRuleMessages.onlyValidPinned);
    const fleetInvalid = await failureOf(
      sdk.models.application.pinToRelease(fleet.slug, newer.release.commit),
    );
    expect(fleetInvalid.message).toContain(releaseRuleMessages.onlyValidPinned);
    // Once nothing runs it, an invalidated release can be deleted.
    await sdk.pine.delete({ resource: 'release', id: newer.release.id });
    await expect(sdk.models.release.get(newer.release.commit)).rejects.toMatchObject({
      code: 'BalenaReleaseNotFound',
    });
  });

  it('getOrCreate and upsert work on every composite natural key', async () => {
    const fleet = await createFleet(sdk, org.id, 'natural');
    const { release, services } = await deploy(sdk, fleet.id, { services: ['main'] });
    const serviceId = services.main ?? 0;
    const device = await insertDevice(server, { fleetId: fleet.id, deviceTypeId, userId });
    const value = () => `v-${randomBytes(3).toString('hex')}`;
    // balena-sdk's own pine client, addressed by resource names that vary in the loop below.
    const rawPine: PinejsClientCore = sdk.pine;

    // Each natural key, another key of the same kind, and the rest of a row to create.
    type Keyed = readonly [string, Record<string, number | string>, string, Record<string, string>];
    const keyed: readonly Keyed[] = [
      ['service', { application: fleet.id, service_name: 'extra' }, 'spare', {}],
      ['application_tag', { application: fleet.id, tag_key: 'team' }, 'site', { value: value() }],
      ['release_tag', { release: release.id, tag_key: 'channel' }, 'site', { value: value() }],
      ['device_tag', { device: device.id, tag_key: 'room' }, 'site', { value: value() }],
      [
        'application_environment_variable',
        { application: fleet.id, name: 'MODE' },
        'LEVEL',
        { value: value() },
      ],
      [
        'application_config_variable',
        { application: fleet.id, name: 'RESIN_HOST_LOG' },
        'BALENA_HOST_X',
        { value: '1' },
      ],
      [
        'build_environment_variable',
        { application: fleet.id, name: 'BUILD' },
        'LEVEL',
        { value: value() },
      ],
      [
        'service_environment_variable',
        { service: serviceId, name: 'PORT' },
        'LEVEL',
        { value: value() },
      ],
      [
        'device_environment_variable',
        { device: device.id, name: 'DEBUG' },
        'LEVEL',
        { value: value() },
      ],
      [
        'device_config_variable',
        { device: device.id, name: 'RESIN_HOST_LOG' },
        'BALENA_HOST_X',
        { value: '0' },
      ],
    ];
    for (const [resource, id, , body] of keyed) {
      const created = await rawPine.getOrCreate({ resource, id, body });
      const again = await rawPine.getOrCreate({ resource, id, body });
      expect(again?.id, resource).toBe(created?.id);
      const found = await rawPine.get({ resource, id, options: { $select: 'id' } });
      expect(found?.id, resource).toBe(created?.id);
    }
    for (const [resource, id, otherKey] of keyed) {
      const keyName = 'service_name' in id ? 'service_name' : 'tag_key' in id ? 'tag_key' : 'name';
      if (resource === 'service') continue;
      const next = value();
      await rawPine.upsert({ resource, id, body: { value: next } });
      const row = await rawPine.get({ resource, id, options: { $select: 'value' } });
      expect(row?.value, resource).toBe(next);
      // An upsert of a new key creates the row.
      const other = { ...id, [keyName]: otherKey };
      await rawPine.upsert({ resource, id: other, body: { value: next } });
      const created = await rawPine.get({ resource, id: other, options: { $select: 'value' } });
      expect(created?.value, resource).toBe(next);
    }
  });
});
