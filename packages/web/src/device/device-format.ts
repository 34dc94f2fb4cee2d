import type { ApiHeartbeatState } from '@flotilla/sdk/resources/device';
import { statusColors, statusLabels } from '../fleet/FleetCard.js';
import { type DeviceStatus, deviceStatuses } from '@flotilla/shared/devices/device-statuses';
import type { ReleaseRef } from './device-rows.js';

export type ChipColor = 'success' | 'info' | 'warning' | 'error' | 'default';

const isDeviceStatus = (status: string): status is DeviceStatus =>
  (deviceStatuses as readonly string[]).includes(status);

// The overall status as the fleet cards name and colour it.
export const statusLabel = (status: string): string =>
  isDeviceStatus(status) ? statusLabels[status] : status;

export const statusColor = (status: string): ChipColor =>
  isDeviceStatus(status) ? statusColors[status] : 'default';

export const heartbeatLabels: Record<ApiHeartbeatState, string> = {
  online: 'Online',
  timeout: 'Timeout',
  offline: 'Offline',
  unknown: 'Unknown',
};

export const heartbeatColors: Record<ApiHeartbeatState, ChipColor> = {
  online: 'success',
  timeout: 'warning',
  offline: 'error',
  unknown: 'default',
};

export const releaseLabel = (release: ReleaseRef | undefined): string =>
  release ? (release.raw_version ?? release.commit.slice(0, 7)) : 'No release';

// Container states: running and idle green, running with a failing health check orange,
// stopped red, everything else blue.
export const containerStatusColor = (status: string): ChipColor => {
  const normalized = status.toLowerCase();
  if (normalized === 'running' || normalized === 'idle') return 'success';
  if (normalized === 'unhealthy') return 'warning';
  if (normalized === 'stopped') return 'error';
  return 'info';
};

// What a status word needs said beside it (the chip's tooltip), when anything.
export const containerStatusHint = (status: string): string | null =>
  status.toLowerCase() === 'unhealthy'
    ? "The service runs, but its health check fails: see the service's logs"
    : null;

// Downloading and updating containers show their progress.
export const containerStatusText = (status: string, progress: number | null): string => {
  const normalized = status.toLowerCase();
  const showsProgress = normalized === 'downloading' || normalized === 'updating';
  return showsProgress && progress !== null ? `${status} (${progress}%)` : status;
};

// Usage bars: up to 60% success, up to 80% warning, above that error.
export const metricColor = (percent: number): 'success' | 'warning' | 'error' => {
  if (percent <= 60) return 'success';
  if (percent <= 80) return 'warning';
  return 'error';
};

export const percentOf = (used: number | null, total: number | null): number | null =>
  used === null || total === null || total <= 0
    ? null
    : Math.min(100, Math.max(0, Math.round((used / total) * 100)));

// Devices report memory and storage in megabytes.
export const megabytes = (value: number): string =>
  value >= 1024 ? `${(value / 1024).toFixed(1)} GB` : `${value} MB`;

const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

const relativeFormat = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

// "3 minutes ago", "in 2 days".
export const relativeTime = (iso: string, now: number = Date.now()): string => {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const [unit, size] = units.find(([, length]) => Math.abs(seconds) >= length) ?? ['second', 1];
  return relativeFormat.format(Math.round(seconds / size), unit);
};

// "5 minutes" (no direction), for "online for ...".
export const durationSince = (iso: string, now: number = Date.now()): string => {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  const [unit, size] = units.find(([, length]) => seconds >= length) ?? ['second', 1];
  const count = Math.round(seconds / size);
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
};

export const absoluteTime = (iso: string): string => new Date(iso).toLocaleString();

// The "last seen" column: how long an online device has been connected, else when it was last
// seen.
export const lastSeenText = (
  device: { is_online: boolean; last_connectivity_event: string | null },
  now: number = Date.now(),
): string => {
  if (device.last_connectivity_event === null) return 'Never';
  return device.is_online
    ? `Online (for ${durationSince(device.last_connectivity_event, now)})`
    : relativeTime(device.last_connectivity_event, now);
};

// Support access: off without a date, "expires on" ahead, "expired on" past.
export const supportAccessText = (until: string | null, now: number = Date.now()): string => {
  if (until === null) return 'Off';
  const date = new Date(until);
  return `${date.getTime() > now ? 'Expires on' : 'Expired on'} ${date.toLocaleString()}`;
};

// ip_address and mac_address hold space-separated lists.
export const addressList = (value: string | null): string[] =>
  (value ?? '').split(/\s+/).filter((part) => part !== '');

export const plural = (count: number, one: string, many = `${one}s`): string =>
  `${count} ${count === 1 ? one : many}`;
