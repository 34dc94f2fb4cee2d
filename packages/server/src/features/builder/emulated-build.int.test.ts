import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type BuilderWorld, startBuilderWorld } from '../../test-support/builder-world.js';
import { ensureEmulation, foreignBusybox } from '../../test-support/emulation.js';
import type { FleetFixture } from '../../test-support/fixtures.js';
import { dockerBuildBackend } from './docker-build-backend.js';

// A build for another CPU architecture than the engine's, on a real engine whose host runs that
// architecture's programs through QEMU user emulation: the fleet's image is built for its
// platform (its steps run emulated) and pushed as an image of that architecture.

// The other architecture, as balena (the fleet's device type), QEMU, Debian and the Engine API
// name it.
const foreign =
  process.arch === 'arm64'
    ? {
        deviceType: 'generic-amd64',
        qemu: 'x86_64',
        debian: 'amd64',
        engine: 'amd64',
        uname: 'x86_64',
      }
    : {
        deviceType: 'raspberrypi4-64',
        qemu: 'aarch64',
        debian: 'arm64',
        engine: 'arm64',
        uname: 'aarch64',
      };

let world: BuilderWorld;
let fleet: FleetFixture;
let busybox: Buffer;

beforeAll(async () => {
  await ensureEmulation(foreign.qemu);
  busybox = await foreignBusybox(foreign.debian);
  world = await startBuilderWorld();
  fleet = await world.fleet('emulated', foreign.deviceType);
}, 300_000);

afterAll(async () => {
  await world.stop();
});

describe('a build for another CPU architecture through emulation', () => {
  it("builds the fleet's images for its platform, running their steps emulated", async () => {
    const answer = await world.upload(fleet, {
      Dockerfile: [
        'FROM scratch',
        'COPY busybox /bin/busybox',
        'RUN ["/bin/busybox", "--install", "-s", "/bin"]',
        'RUN echo "machine=$(uname -m)"',
        '',
      ].join('\n'),
      busybox,
    });
    expect(answer.result, answer.log.join('\n')).toBe('success');
    expect(answer.log).toContain(`[main] Building for ${foreign.engine} through emulation`);
    expect(answer.log).toContain(`[main] machine=${foreign.uname}`);
    const [image] = await world.imagesOf(answer.releaseId);
    if (image === undefined) throw new Error('no image');
    const pushed = await world.pushed(image);
    expect([pushed.config.os, pushed.config.architecture]).toEqual(['linux', foreign.engine]);
  }, 300_000);

  // Every image on the engine, intermediate ones too, by id (the engine lists images created in
  // the same second in no fixed order).
  const imageIds = async (): Promise<string[]> => {
    const answer = await world.engine.get('/images/json?all=1');
    expect(answer.status, answer.body).toBe(200);
    return z
      .array(z.object({ Id: z.string() }))
      .parse(JSON.parse(answer.body))
      .map((image) => image.Id)
      .sort();
  };

  it("learns from the engine whether its host runs a platform's programs, leaving no image behind", async () => {
    const backend = dockerBuildBackend({ socketPath: world.engine.socket });
    const before = await imageIds();
    const signal = AbortSignal.timeout(60_000);
    expect(await backend.runsPlatform(`linux/${foreign.engine}`, signal)).toBe(true);
    // A platform the builder has no program for is one it does not build for.
    expect(await backend.runsPlatform('linux/mips64le', signal)).toBe(false);
    expect(await imageIds()).toEqual(before);
  }, 120_000);
});
