import type { FieldActionId } from '@flotilla/shared/devices/device-action-permissions';
import type { ActionSpec } from './device-actions.js';

// The Action-menu entries that write a device field (or its local-mode variable) through /v7,
// each with what its form chose. The server enforces who may write which field and which values
// are valid (field-permissions.ts, device-hooks.ts); a refusal reaches the user as its message.

export type FieldInputs = {
  // null: track the fleet's release again.
  pin: { releaseId: number | null };
  'public-url': { enabled: boolean };
  'local-mode': { enabled: boolean };
  // ISO date; null revokes.
  'support-access': { until: string | null };
  move: { fleetId: number };
  deactivate: Record<string, never>;
};

export type FieldRequest = {
  [Id in FieldActionId]: { id: Id; input: FieldInputs[Id] };
}[FieldActionId];

// The built-in documentation of device actions (the console's Documentation pages).
export const deviceActionsDocs = '/docs/devices';

const spec = (
  id: FieldActionId,
  label: string,
  blurb: string,
  done: (subject: string) => string,
  extra: Partial<ActionSpec> = {},
): ActionSpec => ({
  id,
  label,
  title: label,
  blurb,
  confirmLabel: 'Apply',
  confirm: true,
  destructive: false,
  forceable: false,
  done,
  docs: deviceActionsDocs,
  ...extra,
});

export const fieldActionSpecs: Record<FieldActionId, ActionSpec> = {
  pin: spec(
    'pin',
    'Pin to release',
    'A pinned device runs the chosen release whatever release its fleet runs; tracking the fleet makes it follow the fleet again. Only successful releases that are not invalidated can be pinned.',
    (subject) => `Changed the release of ${subject}`,
  ),
  'public-url': spec(
    'public-url',
    'Public device URL',
    'A public URL forwards web requests to port 80 of the device, to anyone who knows the URL.',
    (subject) => `Changed the public device URL of ${subject}`,
  ),
  'local-mode': spec(
    'local-mode',
    'Local mode',
    'In local mode the device stops applying the releases of its fleet, so that you can push code to it directly from your network. Only development OS variants with supervisor 4 or later support it.',
    (subject) => `Changed local mode of ${subject}`,
  ),
  'support-access': spec(
    'support-access',
    'Support access',
    'Support agents can see the device, and open a terminal on it, until the date you choose.',
    (subject) => `Changed support access to ${subject}`,
  ),
  move: spec(
    'move',
    'Move device',
    'The device leaves its fleet and runs the release of the fleet it moves to. Its device variables stay; a pin to a release of the old fleet is dropped.',
    (subject) => `Moved ${subject}`,
    { confirmLabel: 'Move' },
  ),
  deactivate: spec(
    'deactivate',
    'Deactivate device',
    'A deactivated device stops counting as an active device and receives no release until it is activated again. It keeps its data, variables and tags.',
    (subject) => `Deactivated ${subject}`,
    { confirmLabel: 'Deactivate', destructive: true },
  ),
};

export const isFieldAction = (id: string): id is FieldActionId =>
  Object.hasOwn(fieldActionSpecs, id);
