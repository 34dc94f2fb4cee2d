import type { ApiHeartbeatState, DeviceUpdateStatus } from '@flotilla/sdk/resources/device';
import type { JsonObject } from '@flotilla/sdk/resources/field-types';
import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';

// Row shapes of the device queries: the $select and $expand of device-queries.ts decide them.

export type ReleaseRef = { id: number; commit: string; raw_version: string | null };
// The host OS or supervisor release a device should run (the catalogue's, see docs/HOST-OS.md).
export type HostReleaseRef = { id: number; raw_version: string; phase: string | null };
export type DeviceTag = { id: number; tag_key: string; value: string };
export type ConfigVariable = { name: string; value: string };
export type DeviceTypeRef = {
  id: number;
  slug: string;
  name: string;
  is_of__cpu_architecture: { slug: string }[];
};

// The device fields the table, the batch actions and the device page all read.
export type DeviceListRow = {
  id: number;
  uuid: string;
  device_name: string;
  overall_status: string;
  overall_progress: number | null;
  api_heartbeat_state: ApiHeartbeatState;
  is_online: boolean;
  // The cloudlink (balena's VPN): device actions travel over it.
  is_connected_to_vpn: boolean;
  is_frozen: boolean;
  is_active: boolean;
  is_web_accessible: boolean;
  is_accessible_by_support_until__date: string | null;
  os_version: string | null;
  os_variant: string | null;
  supervisor_version: string | null;
  ip_address: string | null;
  last_connectivity_event: string | null;
  // What the device reports while its host OS updates (e.g. "OS update in progress", percent).
  provisioning_state: string | null;
  provisioning_progress: number | null;
  // What a Flotilla agent reports about itself (read with readAgentProfile); null otherwise.
  agent_profile: JsonObject | null;
  should_be_operated_by__release: HostReleaseRef[];
  should_be_managed_by__release: HostReleaseRef[];
  // Selected, not expanded: the foreign key or null.
  is_pinned_on__release: { __id: number } | null;
  belongs_to__application: { __id: number };
  is_of__device_type: DeviceTypeRef[];
  is_running__release: ReleaseRef[];
  device_tag: DeviceTag[];
  // Only the local-mode variables (see localModeVariables).
  device_config_variable: ConfigVariable[];
};

export type ImageInstall = {
  id: number;
  status: string;
  download_progress: number | null;
  install_date: string | null;
  installs__image: {
    id: number;
    is_a_build_of__service: { id: number; service_name: string }[];
  }[];
  is_provided_by__release: ReleaseRef[];
};

// Everything the device page shows.
export type DeviceDetail = Omit<
  DeviceListRow,
  'is_of__device_type' | 'belongs_to__application' | 'is_pinned_on__release'
> & {
  note: string | null;
  is_undervolted: boolean;
  public_address: string | null;
  mac_address: string | null;
  last_vpn_event: string | null;
  changed_api_heartbeat_state_on__date: string | null;
  update_status: DeviceUpdateStatus | null;
  last_update_status_event: string | null;
  latitude: string | null;
  longitude: string | null;
  custom_latitude: string | null;
  custom_longitude: string | null;
  location: string | null;
  cpu_usage: number | null;
  cpu_temp: number | null;
  memory_usage: number | null;
  memory_total: number | null;
  storage_usage: number | null;
  storage_total: number | null;
  created_at: string;
  is_of__device_type: (DeviceTypeRef & { contract: JsonObject | null })[];
  belongs_to__application: {
    id: number;
    app_name: string;
    slug: string;
    is_of__class: ApplicationClass;
    organization: { id: number; name: string }[];
  }[];
  is_pinned_on__release: ReleaseRef[];
  should_be_running__release: ReleaseRef[];
  image_install: ImageInstall[];
};
