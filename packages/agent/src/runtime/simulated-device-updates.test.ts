import { describe, expect, it } from 'vitest';
import { checksReport } from '@flotilla/shared/diagnostics/diagnostics';
import {
  imageOf,
  messages,
  setup,
  statuses,
  target,
  withRelease,
} from '../test-support/simulated-device-world.js';

// Releases reaching a simulated device: downloads, update strategies, locks, full disks.
describe('SimulatedDevice updates', () => {
  it('downloads a release with progress, then installs and runs its services', async () => {
    const { clock, device, logs } = setup();
    device.applyTarget(target('c1'), false);
    await clock.runFor(0);
    expect(device.info()).toMatchObject({
      status: 'Downloading',
      apps: { 'app-uuid': { releases: { c1: { update_status: 'downloading' } } } },
    });
    await clock.runFor(400);
    const progress =
      device.info().apps['app-uuid']?.releases.c1?.services.web?.download_progress ?? 0;
    expect(progress).toBeGreaterThan(20);
    expect(progress).toBeLessThan(100);
    const state = await device.handleAction('device-state', {});
    expect(state.body).toMatchObject({
      status: 'Downloading',
      update_pending: true,
      download_progress: progress,
      commit: null,
    });
    await clock.runFor(5000);
    expect(device.info()).toMatchObject({
      status: 'Idle',
      apps: {
        'app-uuid': {
          release_uuid: 'c1',
          releases: {
            c1: {
              update_status: 'done',
              services: { web: { status: 'Running', download_progress: null } },
            },
          },
        },
      },
    });
    expect(messages(logs)).toEqual(
      expect.arrayContaining([
        `Downloading image '${imageOf('web', 'c1')}'`,
        `Downloaded image '${imageOf('web', 'c1')}'`,
        "Installing service 'web'",
        "Starting service 'web'",
      ]),
    );
    // The services see the device as a real one's do.
    const spec = device.engine.inspectAll()[0]?.spec;
    expect(spec?.environment).toMatchObject({
      BALENA_DEVICE_UUID: 'f'.repeat(32),
      BALENA_DEVICE_ARCH: 'aarch64',
      BALENA_SERVICE_NAME: 'web',
    });
    // Running services produce application logs.
    await clock.runFor(4000);
    expect(logs.some((line) => !line.isSystem && line.serviceId !== undefined)).toBe(true);
  });

  it('updates to a new release: both reported while it downloads, then only the new one', async () => {
    const { clock, device } = setup();
    device.applyTarget(target('c1'), false);
    await clock.runFor(10_000);
    device.applyTarget(target('c2', ['web']), false);
    await clock.runFor(500);
    expect(Object.keys(device.info().apps['app-uuid']?.releases ?? {})).toEqual(['c1', 'c2']);
    expect(device.info().apps['app-uuid']?.release_uuid).toBe('c1');
    await clock.runFor(10_000);
    expect(device.info().apps['app-uuid']).toEqual({
      release_uuid: 'c2',
      releases: {
        c2: {
          update_status: 'done',
          services: {
            web: { image: imageOf('web', 'c2'), status: 'Running', download_progress: null },
          },
        },
      },
    });
    // The release that left took its images with it.
    expect(device.engine.inspectAll()).toHaveLength(1);
  });

  // A supervisor converges on its target: a target that changes while an update is being
  // applied is followed once that update is in, although no newer target state arrives.
  it('follows a target that went back to the running release while an update was applied', async () => {
    const { clock, device } = setup();
    device.applyTarget(target('c1'), false);
    await clock.runFor(10_000);
    device.applyTarget(target('c2'), false);
    // Two images of a second each, then the services are replaced.
    await clock.runFor(2100);
    expect(device.info().apps['app-uuid']?.releases.c2?.update_status).toBe('applying changes');
    device.applyTarget(target('c1'), false);
    await clock.runFor(20_000);
    const app = device.info().apps['app-uuid'];
    expect(app?.release_uuid).toBe('c1');
    expect(Object.keys(app?.releases ?? {})).toEqual(['c1']);
    expect(app?.releases.c1?.update_status).toBe('done');
    expect(statuses(device)).toEqual(['Running', 'Running']);
  });

  it('stops the services when the target lost its release while the first one was applied', async () => {
    const { clock, device } = setup();
    device.applyTarget(target('c1'), false);
    await clock.runFor(2100);
    expect(device.info().apps['app-uuid']?.releases.c1?.update_status).toBe('applying changes');
    device.applyTarget(withRelease(target('c1'), null), false);
    await clock.runFor(20_000);
    expect(device.info().apps).toEqual({ 'app-uuid': { releases: {} } });
    expect(device.services).toEqual([]);
  });

  it('applies a newer update only after the one being applied, replacing what that one started', async () => {
    const { clock, device } = setup();
    device.applyTarget(target('c1'), false);
    await clock.runFor(10_000);
    device.applyTarget(target('c2'), false);
    await clock.runFor(2100);
    expect(device.info().apps['app-uuid']?.releases.c2?.update_status).toBe('applying changes');
    // The images of c1 are still there: c3 needs no download.
    const images = target('c1');
    const c3 = images.app?.release && { ...images.app.release, commit: 'c3', id: 3 };
    device.applyTarget(withRelease(images, c3 ?? null), false);
    await clock.runFor(20_000);
    expect(device.info().apps['app-uuid']?.release_uuid).toBe('c3');
    expect(statuses(device)).toEqual(['Running', 'Running']);
    // Only c3's containers are left: c2's were started, then replaced.
    expect(device.engine.inspectAll().map(({ spec }) => spec.name.split('_').at(-1))).toEqual([
      'c3',
      'c3',
    ]);
  });

  it('holds a downloaded update while locked, and applies it when forced', async () => {
    const { clock, device, logs } = setup(true);
    device.applyTarget(target('c1'), false);
    await clock.runFor(10_000);
    expect(device.info().apps['app-uuid']?.releases.c1?.update_status).toBe('downloaded');
    expect((await device.handleAction('device-state', {})).body).toMatchObject({
      update_pending: true,
      update_downloaded: true,
    });
    expect(messages(logs)).toContain('Updates are locked: the update waits for the lock');
    expect(device.services).toEqual([]);
    device.applyTarget(target('c1'), true);
    await clock.runFor(2000);
    expect(device.info().apps['app-uuid']).toMatchObject({
      release_uuid: 'c1',
      releases: { c1: { update_status: 'done' } },
    });
  });

  it('kills a service before downloading its new image when its label asks (kill-then-download)', async () => {
    const { clock, device, logs } = setup();
    device.applyTarget(target('c1', ['web']), false);
    await clock.runFor(10_000);
    logs.length = 0;
    device.applyTarget(
      target('c2', ['web'], {}, {}, { 'io.balena.update.strategy': 'kill-then-download' }),
      false,
    );
    await clock.runFor(500);
    // Killed, and downloading while nothing runs.
    expect(statuses(device)).toEqual([]);
    expect(device.info().status).toBe('Downloading');
    await clock.runFor(10_000);
    const lines = messages(logs).filter((line) => /service 'web'|image/.test(line));
    expect(lines).toEqual([
      "Killing service 'web'",
      "Killed service 'web'",
      `Downloading image '${imageOf('web', 'c2')}'`,
      `Downloaded image '${imageOf('web', 'c2')}'`,
      "Installing service 'web'",
      "Starting service 'web'",
      // The previous release's image, which nothing uses any more.
      `Deleting image '${imageOf('web', 'c1')}'`,
    ]);
    expect(statuses(device)).toEqual(['Running']);
  });

  it('downloads the new image while the old service runs on (download-then-kill, the default)', async () => {
    const { clock, device, logs } = setup();
    device.applyTarget(target('c1', ['web']), false);
    await clock.runFor(10_000);
    logs.length = 0;
    device.applyTarget(target('c2', ['web']), false);
    await clock.runFor(500);
    expect(statuses(device)).toEqual(['Running']);
    await clock.runFor(10_000);
    const lines = messages(logs).filter((line) => /service 'web'|image/.test(line));
    expect(lines).toEqual([
      `Downloading image '${imageOf('web', 'c2')}'`,
      `Downloaded image '${imageOf('web', 'c2')}'`,
      "Killing service 'web'",
      "Killed service 'web'",
      "Installing service 'web'",
      "Starting service 'web'",
      `Deleting image '${imageOf('web', 'c1')}'`,
    ]);
    expect(await device.engine.hasImage(imageOf('web', 'c1'))).toBe(false);
    expect(await device.engine.hasImage(imageOf('web', 'c2'))).toBe(true);
  });

  it('hands over: the new service runs beside the old one until it signals it took over', async () => {
    const { clock, device, logs } = setup();
    const handOver = { 'io.balena.update.strategy': 'hand-over' };
    device.applyTarget(target('c1', ['web'], {}, {}, handOver), false);
    await clock.runFor(10_000);
    logs.length = 0;
    device.applyTarget(
      target('c2', ['web'], {}, {}, { ...handOver, 'io.balena.update.handover-timeout': '30000' }),
      false,
    );
    // A download of a second, then a step to create and one to start.
    await clock.runFor(1250);
    expect(messages(logs)).toContain("Waiting for service 'web' to hand over");
    expect(statuses(device)).toEqual(['Running', 'Running']);
    expect(device.info().apps['app-uuid']?.releases.c2?.update_status).toBe('applying changes');
    // A step after it started, the new service writes handover-complete into its /tmp/balena,
    // long before the timeout; the old one is then killed (a step to stop it).
    await clock.runFor(300);
    expect(messages(logs)).toContain("Service 'web' handed over");
    expect(messages(logs)).not.toContain("Service 'web' did not hand over within 30000 ms");
    await clock.runFor(500);
    expect(device.engine.inspectAll().map(({ spec }) => spec.image)).toEqual([
      imageOf('web', 'c2'),
    ]);
    expect(device.info().apps['app-uuid']?.release_uuid).toBe('c2');
  });

  it('fails an update on a full disk as a real engine does, and carries on once there is room', async () => {
    const { clock, device, logs } = setup();
    device.applyTarget(target('c1', ['web']), false);
    await clock.runFor(10_000);
    device.diskFull = true;
    expect((await device.metrics()).storage_usage).toBeGreaterThan(0.9 * 29_664);
    const checks = checksReport.parse((await device.handleAction('checks', {})).body);
    expect(checks.checks.find((check) => check.name === 'check_disk_space')?.success).toBe(false);
    logs.length = 0;
    device.applyTarget(target('c2', ['web']), false);
    await clock.runFor(1000);
    expect(messages(logs)).toContain(
      `Not enough disk space to download image '${imageOf('web', 'c2')}': write /var/lib/docker/tmp/layer: no space left on device; trying again`,
    );
    expect(device.info().apps['app-uuid']).toMatchObject({
      release_uuid: 'c1',
      releases: { c2: { update_status: 'aborted' } },
    });
    expect(statuses(device)).toEqual(['Running']);
    // Room again: the next try (the retry interval, doubled after a failure) goes through.
    device.diskFull = false;
    await clock.runFor(12_000);
    expect(device.info().apps['app-uuid']?.release_uuid).toBe('c2');
  });
});
