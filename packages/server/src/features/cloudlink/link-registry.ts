import type { DeviceLink } from './device-link.js';

// The cloudlinks this process holds, one per device.
export type LinkRegistry = {
  get(deviceId: number): DeviceLink | undefined;
  // Stores `link` and returns the link it replaces, if any (the caller closes it).
  put(link: DeviceLink): DeviceLink | undefined;
  // Removes `link` only if it is still the device's current one; true when it was.
  remove(link: DeviceLink): boolean;
  all(): IterableIterator<DeviceLink>;
  size(): number;
};

export const createLinkRegistry = (): LinkRegistry => {
  const links = new Map<number, DeviceLink>();
  return {
    get: (deviceId) => links.get(deviceId),
    put(link) {
      const previous = links.get(link.deviceId);
      links.set(link.deviceId, link);
      return previous;
    },
    remove(link) {
      if (links.get(link.deviceId) !== link) return false;
      links.delete(link.deviceId);
      return true;
    },
    all: () => links.values(),
    size: () => links.size,
  };
};
