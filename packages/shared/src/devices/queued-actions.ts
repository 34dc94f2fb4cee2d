import type { DeviceAction } from '../cloudlink/messages.js';
import type { PermissionRef } from '../permissions/permission-ref.js';
import {
  cloudlinkActionPermissions,
  type HostUpdateActionId,
  hostUpdateActionPermissions,
} from './device-action-permissions.js';

// How each cloudlink action reaches a device. "online" actions need the device's live cloudlink
// at the moment they are sent (they read something back); "online-or-queue" actions run at once
// on an online device and, when the caller asks for it, wait in the device's queue while it is
// offline and run when its cloudlink comes back.
export type ActionReach = 'online' | 'online-or-queue';

export const actionReach: Record<DeviceAction, ActionReach> = {
  ping: 'online',
  blink: 'online-or-queue',
  'restart-services': 'online-or-queue',
  reboot: 'online-or-queue',
  shutdown: 'online-or-queue',
  purge: 'online-or-queue',
  update: 'online-or-queue',
  'device-state': 'online',
  'start-service': 'online-or-queue',
  'stop-service': 'online-or-queue',
  'restart-service': 'online-or-queue',
  checks: 'online',
  diagnose: 'online',
};

// OS and supervisor updates set the release the device should run (a write, not a cloudlink
// message): on an offline device the release is set at once and the queued update waits for the
// device to come back and pick it up; an expiry or a cancellation puts the previous release back.
export const hostUpdateReach: Record<HostUpdateActionId, ActionReach> = {
  'os-update': 'online-or-queue',
  'supervisor-update': 'online-or-queue',
};

export const cloudlinkQueueableActions = [
  'blink',
  'restart-services',
  'reboot',
  'shutdown',
  'purge',
  'update',
  'start-service',
  'stop-service',
  'restart-service',
] as const satisfies readonly DeviceAction[];
export type CloudlinkQueueableAction = (typeof cloudlinkQueueableActions)[number];

export const hostUpdateActions = [
  'os-update',
  'supervisor-update',
] as const satisfies readonly HostUpdateActionId[];

export const queueableActions = [...cloudlinkQueueableActions, ...hostUpdateActions] as const;
export type QueueableAction = (typeof queueableActions)[number];

export const isHostUpdateQueued = (action: QueueableAction): action is HostUpdateActionId =>
  (hostUpdateActions as readonly string[]).includes(action);

// Queueing an action, and cancelling it, needs the action's own permission.
export const queuedActionPermission = (action: QueueableAction): PermissionRef =>
  isHostUpdateQueued(action)
    ? hostUpdateActionPermissions[action]
    : cloudlinkActionPermissions[action];

export const isQueueable = (action: string): action is QueueableAction =>
  (queueableActions as readonly string[]).includes(action);

// How long a queued action waits for its device: the console's choices, in hours.
export const queueExpiryChoices = [1, 6, 24, 72, 168] as const;
export const defaultQueueExpiryHours = 24;
export const maxQueueExpiryHours = 720;
// At most this many actions wait for one device at a time.
export const maxQueuedPerDevice = 20;

export type QueuedActionStatus =
  'queued' | 'delivering' | 'done' | 'failed' | 'expired' | 'cancelled';

// One queued action as GET /device-actions/v1/queued answers it.
export type QueuedAction = {
  id: number;
  deviceId: number;
  action: QueueableAction;
  params: {
    force?: boolean;
    appId?: number;
    imageId?: number;
    serviceName?: string;
    // OS and supervisor updates: the release set, the one it replaced, and its version's name.
    releaseId?: number;
    previousReleaseId?: number | null;
    version?: string;
  };
  status: QueuedActionStatus;
  createdAt: string;
  expiresAt: string;
  finishedAt: string | null;
  resultStatus: number | null;
  message: string | null;
};

// One device's outcome of POST /device-actions/v1/run.
export type RunOutcome = {
  deviceId: number;
  outcome: 'done' | 'queued' | 'failed';
  statusCode: number | null;
  message: string | null;
  queuedActionId: number | null;
};
