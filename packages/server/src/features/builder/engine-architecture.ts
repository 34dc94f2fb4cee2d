// Which engines build images a fleet's devices run: balena's CPU architectures as the Engine API
// names them (Go's names). An engine builds natively for its own; building for another one
// (QEMU user emulation) is not offered yet.
const engineArchitectures: Record<string, string> = {
  amd64: 'amd64',
  aarch64: 'arm64',
  armv7hf: 'arm',
  rpi: 'arm',
  i386: '386',
  'i386-nlp': '386',
};

// Why the engine cannot build for the fleet, or undefined when it can (or the fleet's
// architecture is not one the builder knows, which it then does not check).
export const architectureMismatch = (
  fleetArch: string | undefined,
  engineArch: string,
): string | undefined => {
  const wanted = fleetArch === undefined ? undefined : engineArchitectures[fleetArch];
  if (wanted === undefined || wanted === engineArch) return undefined;
  return `The fleet's devices run ${fleetArch ?? ''} images and this server's container engine builds ${engineArch} images; building for another CPU architecture is not available yet: build it with 'balena deploy' on a ${fleetArch ?? ''} machine`;
};
