import type {
  FieldActionId,
  HostUpdateActionId,
  SupervisorActionId,
} from '@flotilla/shared/devices/device-action-permissions';
import { fieldActionSpecs, type FieldInputs } from './field-actions.js';
import { type HostUpdateInput, hostUpdateSpecs } from './host-update-actions.js';

// The actions of the Actions menu and of the table's batch menu.
export type MenuActionId = SupervisorActionId | FieldActionId | HostUpdateActionId | 'delete';

// An action with what its form chose (the field actions), as it runs on each device.
export type ActionRequest = {
  [Id in MenuActionId]: Id extends FieldActionId
    ? { id: Id; input: FieldInputs[Id] }
    : Id extends HostUpdateActionId
      ? { id: Id; input: HostUpdateInput }
      : Id extends SupervisorActionId
        ? // queueHours: an offline device queues the action for that long instead of refusing it.
          { id: Id; queueHours?: number }
        : { id: Id };
}[MenuActionId];

export type ActionSpec = {
  id: MenuActionId;
  label: string;
  // Confirmation dialog: title, what happens, the button.
  title: string;
  blurb: string;
  confirmLabel: string;
  // Asks for confirmation first (destructive or disruptive actions).
  confirm: boolean;
  destructive: boolean;
  // Refused by an update lock (423) and worth repeating with force.
  forceable: boolean;
  // Success toast; `subject` is the device name or "N devices".
  done: (subject: string) => string;
  // The documentation of the action (the dialog's docs link).
  docs?: string;
};

const updateLockNote =
  'If an update lock is set on a device, the action is blocked there; you can then force it.';

export const actionSpecs: Record<MenuActionId, ActionSpec> = {
  ...fieldActionSpecs,
  ...hostUpdateSpecs,
  restart: {
    id: 'restart',
    label: 'Restart services',
    title: 'Restart services',
    blurb: 'The services of the release are stopped and started again.',
    confirmLabel: 'Restart services',
    confirm: true,
    destructive: false,
    forceable: true,
    done: (subject) => `Restarting the services of ${subject}`,
  },
  reboot: {
    id: 'reboot',
    label: 'Reboot',
    title: 'Reboot',
    blurb: `The device restarts and is offline for a while. ${updateLockNote}`,
    confirmLabel: 'Reboot',
    confirm: true,
    destructive: false,
    forceable: true,
    done: (subject) => `Rebooting ${subject}`,
  },
  shutdown: {
    id: 'shutdown',
    label: 'Shutdown',
    title: 'Shutdown',
    blurb: `The device powers off and stays offline until someone turns it on again. ${updateLockNote}`,
    confirmLabel: 'Shut down',
    confirm: true,
    destructive: true,
    forceable: true,
    done: (subject) => `Shutting down ${subject}`,
  },
  identify: {
    id: 'identify',
    label: 'Identify',
    title: 'Identify',
    blurb: 'The device blinks its LED for a few seconds.',
    confirmLabel: 'Identify',
    confirm: false,
    destructive: false,
    forceable: false,
    done: (subject) => `Identifying ${subject}`,
  },
  purge: {
    id: 'purge',
    label: 'Purge data',
    title: 'Purge data',
    blurb:
      'The data the services stored on the device (their volumes) is deleted and the services restart. This cannot be undone.',
    confirmLabel: 'Purge data',
    confirm: true,
    destructive: true,
    forceable: true,
    done: (subject) => `Purging the data of ${subject}`,
  },
  delete: {
    id: 'delete',
    label: 'Delete device',
    title: 'Delete device',
    blurb:
      'The device is removed from the fleet with its variables, tags and history. It cannot reconnect with its current key. This cannot be undone.',
    confirmLabel: 'Delete',
    confirm: true,
    destructive: true,
    forceable: false,
    done: (subject) => `Deleted ${subject}`,
  },
};

// The order the Actions menu lists them in.
export const menuActions: readonly MenuActionId[] = [
  'restart',
  'pin',
  'public-url',
  'local-mode',
  'support-access',
  'move',
  'os-update',
  'identify',
  'supervisor-update',
  'deactivate',
  'purge',
  'reboot',
  'shutdown',
  'delete',
];

// What an action needs to know of its device.
export type ActionTarget = { id: number; uuid: string; name: string; fleetId: number };

// A confirmed action without a form: the supervisor actions (queued for `queueHours` on offline
// devices when the user chose to) and delete.
export const plainRequest = (
  id: SupervisorActionId | 'delete',
  queueHours: number | undefined,
): ActionRequest => (id === 'delete' || queueHours === undefined ? { id } : { id, queueHours });
