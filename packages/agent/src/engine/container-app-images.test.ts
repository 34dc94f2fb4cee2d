import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ContainerAppHarness,
  startContainerApp,
  testApp,
  testService,
} from '../test-support/container-app-harness.js';

const image = (service: string, commit: string): string => testService(service, commit).image;
const userImage = 'docker.io/library/user-tool:1';

describe("ContainerApp: the release's images", () => {
  let harness: ContainerAppHarness;

  beforeEach(async () => {
    harness = await startContainerApp();
    // The device owner's own image, which the agent never pulled.
    harness.engine.images.add(userImage);
  });

  afterEach(async () => {
    await harness.close();
  });

  it('deletes the images the update left unused, and only those the agent brought', async () => {
    const { engine, logs } = harness;
    await harness.apply(testApp('a1', [testService('main', 'a1'), testService('worker', 'a1')]));
    // worker keeps its image across the update; main gets a new one.
    await harness.apply(
      testApp('b2', [
        testService('main', 'b2'),
        testService('worker', 'b2', { image: image('worker', 'a1') }),
      ]),
    );
    expect([...engine.images].sort()).toEqual(
      [userImage, image('main', 'b2'), image('worker', 'a1')].sort(),
    );
    expect(logs).toContain(`Deleting image '${image('main', 'a1')}'`);
    expect(engine.calls.filter((call) => call.startsWith('remove-image'))).toEqual([
      `remove-image ${image('main', 'a1')}`,
    ]);
  });

  it('knows its images again after a restart by the containers it finds', async () => {
    const { engine, lockDir } = harness;
    await harness.apply(testApp('a1', [testService('main', 'a1')]));
    await harness.close(true);
    harness = await startContainerApp({ engine, lockDir });
    await harness.apply(testApp('b2', [testService('main', 'b2')]));
    expect([...engine.images].sort()).toEqual([userImage, image('main', 'b2')].sort());
  });

  it('says when the disk is too full to download, makes room from old images, and tries again later', async () => {
    const { engine, clock, containerApp, logs } = harness;
    await harness.apply(testApp('a1', [testService('main', 'a1')]));
    engine.diskFull = true;
    // Killed first: the old image is then unused, and deleted to make room.
    const killFirst = { labels: { 'io.balena.update.strategy': 'kill-then-download' } };
    await harness.apply(testApp('b2', [testService('main', 'b2', killFirst)]));
    expect(logs).toContain(
      `Not enough disk space to download image '${image('main', 'b2')}': write /var/lib/docker/tmp/layer: no space left on device; trying again`,
    );
    expect(containerApp.diskProblem).toMatch(/no space left on device/);
    expect(containerApp.engineProblem).toBeNull();
    expect(containerApp.report()['app-uuid']?.releases.b2?.update_status).toBe('aborted');
    expect(engine.images.has(image('main', 'a1'))).toBe(false);
    expect(engine.images.has(userImage)).toBe(true);

    // Backing off as any failed update does: 2 s after the first failure.
    engine.diskFull = false;
    const pulls = () => engine.calls.filter((call) => call === `pull ${image('main', 'b2')}`);
    clock.advance(1999);
    await containerApp.settled;
    expect(pulls()).toHaveLength(1);
    clock.advance(1);
    await containerApp.settled;
    expect(containerApp.report()['app-uuid']?.release_uuid).toBe('b2');
    expect(containerApp.diskProblem).toBeNull();
  });

  it('says when the disk is too full to create a container', async () => {
    const { engine, containerApp, logs } = harness;
    engine.images.add(image('main', 'a1'));
    engine.diskFull = true;
    await harness.apply(testApp('a1', [testService('main', 'a1')]));
    expect(logs.filter((line) => line.startsWith('Not enough disk space'))).toEqual([
      "Not enough disk space to install service 'main': write /var/lib/docker/tmp/layer: no space left on device; trying again",
    ]);
    expect(containerApp.report()['app-uuid']?.releases.a1?.update_status).toBe('aborted');
  });
});
