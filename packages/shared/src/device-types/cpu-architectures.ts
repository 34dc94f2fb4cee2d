// Which fleet architectures a device's CPU can run: 64-bit ARM runs 32-bit ARM images, ARMv7
// runs ARMv6 ("rpi") images, amd64 runs i386 images. Used for registration, moves and the
// console's fleet pickers.
export const runnableArchitectures: Readonly<Record<string, readonly string[]>> = {
  aarch64: ['aarch64', 'armv7hf', 'rpi'],
  armv7hf: ['armv7hf', 'rpi'],
  rpi: ['rpi'],
  amd64: ['amd64', 'i386'],
  i386: ['i386'],
  'i386-nlp': ['i386-nlp', 'i386'],
};

export const canRunArchitecture = (
  deviceArchitecture: string,
  fleetArchitecture: string,
): boolean =>
  (runnableArchitectures[deviceArchitecture] ?? [deviceArchitecture]).includes(fleetArchitecture);
