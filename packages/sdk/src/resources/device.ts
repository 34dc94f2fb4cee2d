import type { Application } from './application.js';
import type { DeviceConfigVariable, DeviceTag, ImageInstall } from './device-state.js';
import type { DeviceType } from './device-type.js';
import type { DateTime, JsonObject, OptionalToOne, ToOne } from './field-types.js';
import type { Release } from './release.js';
import type { User } from './user.js';

export type ApiHeartbeatState = 'online' | 'offline' | 'timeout' | 'unknown';

export type DeviceUpdateStatus =
  'rejected' | 'downloading' | 'downloaded' | 'applying changes' | 'aborted' | 'done';

// v7 device.
export type Device = {
  id: number;
  created_at: DateTime;
  modified_at: DateTime;
  actor: ToOne<{ id: number }>;
  uuid: string;
  local_id: string | null;
  device_name: string;
  note: string | null;
  is_of__device_type: ToOne<DeviceType>;
  belongs_to__application: ToOne<Application>;
  belongs_to__user: OptionalToOne<User>;
  api_heartbeat_state: ApiHeartbeatState;
  changed_api_heartbeat_state_on__date: DateTime | null;
  is_online: boolean;
  last_connectivity_event: DateTime | null;
  is_connected_to_vpn: boolean;
  last_vpn_event: DateTime | null;
  is_locked_until__date: DateTime | null;
  public_address: string | null;
  ip_address: string | null;
  mac_address: string | null;
  is_web_accessible: boolean;
  memory_usage: number | null;
  memory_total: number | null;
  storage_block_device: string | null;
  storage_usage: number | null;
  storage_total: number | null;
  cpu_usage: number | null;
  cpu_temp: number | null;
  is_undervolted: boolean;
  cpu_id: string | null;
  is_running__release: OptionalToOne<Release>;
  is_pinned_on__release: OptionalToOne<Release>;
  should_be_running__release: OptionalToOne<Release>;
  should_be_operated_by__release: OptionalToOne<Release>;
  should_be_managed_by__release: OptionalToOne<Release>;
  is_managed_by__service_instance: OptionalToOne<{ id: number }>;
  download_progress: number | null;
  status: string | null;
  os_version: string | null;
  os_variant: string | null;
  // What a Flotilla agent reports about itself (shared/device-protocol/agent-profile-rules.ts).
  agent_profile: JsonObject | null;
  overall_status: string;
  overall_progress: number | null;
  supervisor_version: string | null;
  provisioning_progress: number | null;
  provisioning_state: string | null;
  update_status: DeviceUpdateStatus | null;
  last_update_status_event: DateTime | null;
  latitude: string | null;
  longitude: string | null;
  custom_latitude: string | null;
  custom_longitude: string | null;
  location: string | null;
  is_accessible_by_support_until__date: DateTime | null;
  is_active: boolean;
  is_frozen: boolean;
  // Reverse navigations, present only when expanded.
  device_tag?: DeviceTag[];
  device_config_variable?: DeviceConfigVariable[];
  image_install?: ImageInstall[];
};

// What the console may change on a device.
export type DeviceWrite = {
  device_name: string;
  note: string | null;
  belongs_to__application: number;
  is_pinned_on__release: number | null;
  is_web_accessible: boolean;
  is_locked_until__date: DateTime | null;
  custom_latitude: string | null;
  custom_longitude: string | null;
  is_accessible_by_support_until__date: DateTime | null;
  is_active: boolean;
  should_be_operated_by__release: number | null;
  should_be_managed_by__release: number | null;
};
