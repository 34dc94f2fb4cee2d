import type { ActionDevice } from './device-action-rules.js';
import { actionDeviceOf } from './device-action-rules.js';
import type { ActionTarget } from './device-actions.js';
import type { DeviceDetail, DeviceListRow } from '../../device/device-rows.js';

// What the field actions' forms need of each device they act on, from a table row or the
// device page alike.
export type FieldActionDevice = {
  target: ActionTarget;
  state: ActionDevice;
  deviceType: string;
  osVersion: string | null;
  osVariant: string | null;
  supervisorVersion: string | null;
  // The heartbeat: an OS update needs the device online.
  isOnline: boolean;
  isWebAccessible: boolean;
  supportUntil: string | null;
  pinnedReleaseId: number | null;
};

const common = (device: DeviceListRow | DeviceDetail) => ({
  state: actionDeviceOf(device),
  osVersion: device.os_version,
  osVariant: device.os_variant,
  supervisorVersion: device.supervisor_version,
  isOnline: device.is_online,
  isWebAccessible: device.is_web_accessible,
  supportUntil: device.is_accessible_by_support_until__date,
});

export const fieldDeviceOfRow = (row: DeviceListRow): FieldActionDevice => ({
  ...common(row),
  target: {
    id: row.id,
    uuid: row.uuid,
    name: row.device_name,
    fleetId: row.belongs_to__application.__id,
  },
  deviceType: row.is_of__device_type[0]?.slug ?? '',
  pinnedReleaseId: row.is_pinned_on__release?.__id ?? null,
});

export const fieldDeviceOfDetail = (
  detail: DeviceDetail,
  target: ActionTarget,
): FieldActionDevice => ({
  ...common(detail),
  target,
  deviceType: detail.is_of__device_type[0]?.slug ?? '',
  pinnedReleaseId: detail.is_pinned_on__release[0]?.id ?? null,
});
