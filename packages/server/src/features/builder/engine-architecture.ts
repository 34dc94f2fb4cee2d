// Which engines build images a fleet's devices run: balena's CPU architectures as the Engine API
// names them (Go's names) and the platform a build asks for. An engine builds natively for its
// own architecture; for another one, through emulation when its host runs that architecture's
// programs (QEMU user emulation registered with binfmt_misc).
const fleetPlatforms: Record<string, { arch: string; platform: string }> = {
  amd64: { arch: 'amd64', platform: 'linux/amd64' },
  aarch64: { arch: 'arm64', platform: 'linux/arm64' },
  armv7hf: { arch: 'arm', platform: 'linux/arm/v7' },
  rpi: { arch: 'arm', platform: 'linux/arm/v6' },
  i386: { arch: '386', platform: 'linux/386' },
  'i386-nlp': { arch: '386', platform: 'linux/386' },
};

// How the fleet's images are built: natively (no platform asked for), for another platform
// through emulation, or not at all, saying why.
export type PlatformTarget = { platform: undefined } | { platform: string; emulated: string };

export type BuildTarget = PlatformTarget | { refused: string };

export type Emulation = {
  // FLOTILLA_BUILDER_EMULATION
  enabled: boolean;
  runsPlatform(platform: string): Promise<boolean>;
};

export const buildTarget = async (
  fleetArch: string | undefined,
  engineArch: string,
  emulation: Emulation,
): Promise<BuildTarget> => {
  // A fleet's architecture the builder does not know is not checked.
  const wanted = fleetArch === undefined ? undefined : fleetPlatforms[fleetArch];
  if (wanted === undefined || wanted.arch === engineArch) return { platform: undefined };
  const mismatch = `The fleet's devices run ${fleetArch ?? ''} images and this server's container engine builds ${engineArch} images`;
  const elsewhere = `build it with 'balena deploy' on a ${fleetArch ?? ''} machine`;
  if (!emulation.enabled) {
    return {
      refused: `${mismatch}; building for another CPU architecture through emulation is turned off (FLOTILLA_BUILDER_EMULATION=off): ${elsewhere}`,
    };
  }
  if (!(await emulation.runsPlatform(wanted.platform))) {
    return {
      refused: `${mismatch}, and its host cannot run ${wanted.platform} programs (QEMU user emulation registered with binfmt_misc and its F flag, such as Debian's qemu-user-static, lets it build for them): ${elsewhere}`,
    };
  }
  return { platform: wanted.platform, emulated: wanted.platform.slice('linux/'.length) };
};
