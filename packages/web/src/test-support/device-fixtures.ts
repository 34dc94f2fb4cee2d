import type { DeviceDetail, DeviceListRow, ImageInstall } from '../device/device-rows.js';

// A device row as the fleet's device query answers it.
export const deviceRow = (overrides: Partial<DeviceListRow> = {}): DeviceListRow => ({
  id: 101,
  uuid: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
  device_name: 'brave-otter',
  overall_status: 'operational',
  overall_progress: null,
  api_heartbeat_state: 'online',
  is_online: true,
  is_connected_to_vpn: true,
  is_frozen: false,
  is_active: true,
  is_web_accessible: false,
  is_accessible_by_support_until__date: null,
  os_version: 'balenaOS 5.3.1',
  os_variant: 'prod',
  supervisor_version: '16.4.2',
  ip_address: '192.168.1.20 10.0.0.4',
  last_connectivity_event: '2024-05-01T10:00:00.000Z',
  provisioning_state: null,
  provisioning_progress: null,
  agent_profile: null,
  should_be_operated_by__release: [],
  should_be_managed_by__release: [],
  is_pinned_on__release: null,
  belongs_to__application: { __id: 12 },
  is_of__device_type: [
    {
      id: 30,
      slug: 'raspberrypi4-64',
      name: 'Raspberry Pi 4 (64bit)',
      is_of__cpu_architecture: [{ slug: 'aarch64' }],
    },
  ],
  is_running__release: [{ id: 5, commit: 'abcdef1234567', raw_version: '1.2.0' }],
  device_tag: [{ id: 1, tag_key: 'site', value: 'north' }],
  device_config_variable: [],
  ...overrides,
});

// A device as the device page's query answers it.
export const deviceDetail = (overrides: Partial<DeviceDetail> = {}): DeviceDetail => {
  // The page expands the device type and fleet the list only references.
  const row: Omit<DeviceListRow, 'is_of__device_type' | 'belongs_to__application'> &
    Partial<DeviceListRow> = { ...deviceRow() };
  delete row.is_of__device_type;
  delete row.belongs_to__application;
  return {
    ...row,
    note: 'Rack **B**',
    is_undervolted: false,
    public_address: '203.0.113.7',
    mac_address: 'dc:a6:32:00:00:01',
    last_vpn_event: '2024-05-01T10:00:00.000Z',
    changed_api_heartbeat_state_on__date: null,
    update_status: 'done',
    last_update_status_event: '2024-05-01T09:00:00.000Z',
    latitude: '52.37',
    longitude: '4.89',
    custom_latitude: null,
    custom_longitude: null,
    location: 'Amsterdam',
    cpu_usage: 35,
    cpu_temp: 71,
    memory_usage: 900,
    memory_total: 1000,
    storage_usage: 2048,
    storage_total: 16384,
    created_at: '2024-04-01T10:00:00.000Z',
    is_of__device_type: [
      {
        id: 30,
        slug: 'raspberrypi4-64',
        name: 'Raspberry Pi 4 (64bit)',
        is_of__cpu_architecture: [{ slug: 'aarch64' }],
        contract: { data: { led: true } },
      },
    ],
    belongs_to__application: [
      {
        id: 12,
        app_name: 'garden-sensors',
        slug: 'acme/garden-sensors',
        is_of__class: 'fleet',
        organization: [{ id: 3, name: 'Acme' }],
      },
    ],
    is_pinned_on__release: [],
    should_be_running__release: [{ id: 5, commit: 'abcdef1234567', raw_version: '1.2.0' }],
    image_install: [
      install(1, 'main', 'Running', null),
      install(2, 'worker', 'exited', null),
      install(3, 'proxy', 'Downloading', 42),
    ],
    ...overrides,
  };
};

export function install(
  id: number,
  service: string,
  status: string,
  progress: number | null,
): ImageInstall {
  return {
    id,
    status,
    download_progress: progress,
    install_date: null,
    installs__image: [{ id: id + 100, is_a_build_of__service: [{ id, service_name: service }] }],
    is_provided_by__release: [{ id: 5, commit: 'abcdef1234567', raw_version: '1.2.0' }],
  };
}
