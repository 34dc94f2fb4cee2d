import { canRunArchitecture } from '@flotilla/shared/device-types/cpu-architectures';
import { nameAdjectives, nameNouns } from '@flotilla/shared/fleets/name-suggestion';
import { between, type Random } from './clock.js';
import type { SimulatedProfile } from './runtime/simulated-device.js';

const pick = <T>(random: Random, items: readonly T[]): T => {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
};

type City = { name: string; latitude: number; longitude: number };

const cities: readonly City[] = [
  { name: 'Berlin', latitude: 52.52, longitude: 13.405 },
  { name: 'Lisbon', latitude: 38.722, longitude: -9.139 },
  { name: 'Athens', latitude: 37.984, longitude: 23.728 },
  { name: 'London', latitude: 51.507, longitude: -0.128 },
  { name: 'Seattle', latitude: 47.606, longitude: -122.332 },
  { name: 'Austin', latitude: 30.267, longitude: -97.743 },
  { name: 'São Paulo', latitude: -23.55, longitude: -46.633 },
  { name: 'Bangalore', latitude: 12.972, longitude: 77.595 },
  { name: 'Tokyo', latitude: 35.676, longitude: 139.65 },
  { name: 'Sydney', latitude: -33.869, longitude: 151.209 },
];

// A small catalogue of common device types with their CPU architecture, for mixed fleets.
const knownTypes: readonly { slug: string; arch: string; memoryMb: number; oui: string }[] = [
  { slug: 'raspberrypi3', arch: 'armv7hf', memoryMb: 926, oui: 'B8:27:EB' },
  { slug: 'raspberrypi3-64', arch: 'aarch64', memoryMb: 926, oui: 'B8:27:EB' },
  { slug: 'raspberrypi4-64', arch: 'aarch64', memoryMb: 3796, oui: 'DC:A6:32' },
  { slug: 'raspberrypi5', arch: 'aarch64', memoryMb: 7938, oui: 'D8:3A:DD' },
  { slug: 'raspberrypi0-2w-64', arch: 'aarch64', memoryMb: 427, oui: 'E4:5F:01' },
  { slug: 'raspberrypicm4-ioboard', arch: 'aarch64', memoryMb: 3796, oui: 'E4:5F:01' },
  { slug: 'fincm3', arch: 'armv7hf', memoryMb: 926, oui: 'B8:27:EB' },
  { slug: 'raspberry-pi', arch: 'rpi', memoryMb: 432, oui: 'B8:27:EB' },
  { slug: 'beaglebone-black', arch: 'armv7hf', memoryMb: 496, oui: 'C8:A0:30' },
  { slug: 'jetson-nano', arch: 'aarch64', memoryMb: 3956, oui: '48:B0:2D' },
  { slug: 'jetson-orin-nano', arch: 'aarch64', memoryMb: 7620, oui: '48:B0:2D' },
  { slug: 'generic-aarch64', arch: 'aarch64', memoryMb: 3920, oui: '52:54:00' },
  { slug: 'intel-nuc', arch: 'amd64', memoryMb: 15_876, oui: '94:C6:91' },
  { slug: 'generic-amd64', arch: 'amd64', memoryMb: 7_860, oui: '00:1E:06' },
  { slug: 'qemux86-64', arch: 'amd64', memoryMb: 1_992, oui: '52:54:00' },
];

const osVersions = [
  'balenaOS 6.0.13',
  'balenaOS 6.1.24',
  'balenaOS 6.3.18',
  'balenaOS 6.5.9',
  'balenaOS 5.3.24',
];
const supervisorVersions = ['16.7.9', '16.12.5', '17.0.1', '17.1.4'];
const storageSizesMb = [14_832, 29_664, 59_344, 119_280];

// Device types for a fleet: its own type mostly, plus catalogue types that run its releases.
export const compatibleTypes = (fleetType: string, fleetArch: string | null): string[] => {
  if (fleetArch === null) return [fleetType];
  const others = knownTypes
    .filter((type) => type.slug !== fleetType && canRunArchitecture(type.arch, fleetArch))
    .map((type) => type.slug);
  return [fleetType, ...others];
};

export const pickDeviceType = (random: Random, types: readonly string[]): string => {
  const [own, ...others] = types;
  if (own === undefined) throw new Error('no device type to pick from');
  return others.length === 0 || random() < 0.6 ? own : pick(random, others);
};

export const deviceName = (random: Random): string =>
  `${pick(random, nameAdjectives)}-${pick(random, nameNouns)}`;

export type Location = { city: string; latitude: number; longitude: number };

// Around a few cities, spread over roughly ±15 km.
export const pickLocation = (random: Random): Location => {
  const city = pick(random, cities);
  return {
    city: city.name,
    latitude: Number((city.latitude + between(random, -0.14, 0.14)).toFixed(5)),
    longitude: Number((city.longitude + between(random, -0.2, 0.2)).toFixed(5)),
  };
};

const hexPair = (random: Random): string =>
  Math.floor(random() * 256)
    .toString(16)
    .padStart(2, '0')
    .toUpperCase();

const lanAddress = (random: Random): string =>
  random() < 0.7
    ? `192.168.${pick(random, [0, 1, 1, 10, 178])}.${Math.floor(between(random, 2, 254))}`
    : `10.${Math.floor(between(random, 0, 40))}.${Math.floor(between(random, 0, 255))}.${Math.floor(between(random, 2, 254))}`;

export const simulatedProfile = (
  random: Random,
  name: string,
  deviceType: string,
  // The fleet's architecture, for a device type the catalogue does not know.
  fleetArch: string | null = null,
): SimulatedProfile => {
  const known = knownTypes.find((type) => type.slug === deviceType);
  const oui = known?.oui ?? '02:42:AC';
  const mac = (): string => `${oui}:${hexPair(random)}:${hexPair(random)}:${hexPair(random)}`;
  // Some devices have Wi-Fi and Ethernet up at once, as the console often shows.
  const twoInterfaces = random() < 0.25;
  return {
    name,
    deviceType,
    arch: known?.arch ?? fleetArch ?? 'aarch64',
    osVersion: pick(random, osVersions),
    osVariant: random() < 0.85 ? 'prod' : 'dev',
    supervisorVersion: pick(random, supervisorVersions),
    ipAddress: twoInterfaces ? `${lanAddress(random)} ${lanAddress(random)}` : lanAddress(random),
    macAddress: twoInterfaces ? `${mac()} ${mac()}` : mac(),
    metrics: {
      memoryTotalMb: known?.memoryMb ?? 3920,
      storageTotalMb: pick(random, storageSizesMb),
      storageBlockDevice: /^(intel|generic|qemu)/.test(deviceType) ? '/dev/sda' : '/dev/mmcblk0',
      mayUndervolt: deviceType.startsWith('raspberry'),
    },
  };
};
