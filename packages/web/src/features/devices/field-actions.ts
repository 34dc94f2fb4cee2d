import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { FieldActionId } from '@flotilla/shared/devices/device-action-permissions';
import { localModeVariableNames } from '@flotilla/shared/permissions/field-permissions';
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
  move: { applicationId: number };
  deactivate: Record<string, never>;
};

export type FieldRequest = {
  [Id in FieldActionId]: { id: Id; input: FieldInputs[Id] };
}[FieldActionId];

const docs = 'https://docs.balena.io/learn/manage/actions/';

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
  docs,
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

const [localModeVariable] = localModeVariableNames;

// Local mode is a configuration variable: the one the device holds (either name) is changed,
// else RESIN_SUPERVISOR_LOCAL_MODE is created (what balena's SDK does).
const setLocalMode = async (
  client: FlotillaClient,
  deviceId: number,
  enabled: boolean,
): Promise<void> => {
  const value = enabled ? '1' : '0';
  const existing = await client.pine.get({
    resource: 'device_config_variable',
    options: {
      $select: ['id', 'value'],
      $filter: { device: deviceId, name: { $in: [...localModeVariableNames] } },
    },
  });
  if (existing.length === 0) {
    await client.pine.post({
      resource: 'device_config_variable',
      body: { device: deviceId, name: localModeVariable, value },
    });
    return;
  }
  for (const variable of existing) {
    if (variable.value === value) continue;
    await client.pine.patch({
      resource: 'device_config_variable',
      id: variable.id,
      body: { value },
    });
  }
};

export const runFieldAction = async (
  client: FlotillaClient,
  request: FieldRequest,
  deviceId: number,
): Promise<void> => {
  const patch = (body: Record<string, unknown>) =>
    client.pine.patch({ resource: 'device', id: deviceId, body });
  switch (request.id) {
    case 'pin':
      await patch({ is_pinned_on__release: request.input.releaseId });
      return;
    case 'public-url':
      await patch({ is_web_accessible: request.input.enabled });
      return;
    case 'support-access':
      await patch({ is_accessible_by_support_until__date: request.input.until });
      return;
    case 'move':
      await patch({ belongs_to__application: request.input.applicationId });
      return;
    case 'deactivate':
      await patch({ is_active: false });
      return;
    case 'local-mode':
      await setLocalMode(client, deviceId, request.input.enabled);
      return;
  }
};

export const isFieldAction = (id: string): id is FieldActionId =>
  Object.hasOwn(fieldActionSpecs, id);
