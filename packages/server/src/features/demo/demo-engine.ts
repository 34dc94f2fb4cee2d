import type { Config } from '../../infra/config/config.js';
import { imageBuilderOf } from '../builder/image-builder.js';
import { findStaticBusybox } from './demo-build.js';
import { demoFleetBuiltOn, demoFleetSlugOf } from './seed-demo.js';
import type { RealDevices } from '../../start-banner.js';

// Whether this start can give the demo a release real devices run: a container engine to build
// on, a registry to push to and a static busybox to build from. Otherwise why not, in words the
// start banner shows.
export type DemoEngine =
  { kind: 'real'; busybox: string; deviceType: string } | { kind: 'simulated'; reason: string };

export const demoEngineOf = async (config: Config): Promise<DemoEngine> => {
  const availability = imageBuilderOf(config);
  if ('unavailable' in availability) return { kind: 'simulated', reason: availability.unavailable };
  let architecture: string;
  try {
    architecture = await availability.builder.backend.architecture();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { kind: 'simulated', reason: `the container engine does not answer (${why})` };
  }
  const deviceType = demoFleetBuiltOn(architecture);
  if (deviceType === undefined) {
    return {
      kind: 'simulated',
      reason: `the container engine builds ${architecture} images, for which the demo has no fleet`,
    };
  }
  const busybox = await findStaticBusybox();
  if (busybox === undefined) {
    return {
      kind: 'simulated',
      reason:
        'no static busybox to build the demo images from (Debian: apt-get install busybox-static)',
    };
  }
  return { kind: 'real', busybox, deviceType };
};

// What the start banner says about real devices: the command that runs this machine as one, or
// why the demo's devices are only simulated.
export const realDevicesOf = (engine: DemoEngine): RealDevices =>
  engine.kind === 'real'
    ? { kind: 'real', fleet: demoFleetSlugOf(engine.deviceType) ?? '' }
    : { kind: 'simulated', reason: engine.reason };
