import type { ResourceDefinition } from '../model-types.js';
import {
  bool,
  createdAt,
  date,
  id,
  integer,
  json,
  keyValue,
  modifiedAt,
  ref,
  shortText,
  text,
} from './field-kinds.js';
import {
  heartbeatChangedAt,
  heartbeatState,
  isOnline,
  lastConnectivityEvent,
  overallProgress,
  overallStatus,
  shouldBeRunningRelease,
} from './device-status.js';
import { fleetStatusCount } from './device-status-count.js';
import { heartbeatStateIs, isOnlineIs, overallStatusIs } from './device-status-equals.js';
import { applicationOfDevice } from './sql-helpers.js';

const deviceScoped = {
  application: (row: string) => applicationOfDevice(`${row}."device"`, row),
  device: (row: string) => `${row}."device"`,
};

// Devices, their tags, what they run (image and service installs) and their history.
export const deviceResources: Record<string, ResourceDefinition> = {
  device: {
    fields: {
      id,
      created_at: createdAt,
      modified_at: modifiedAt,
      actor: ref('actor', 'is_of__device', { readOnly: true }),
      // Derived from the device's last contact (features/heartbeat), never written by clients.
      api_heartbeat_state: text({
        readOnly: true,
        computed: heartbeatState,
        equals: heartbeatStateIs,
      }),
      changed_api_heartbeat_state_on__date: date({ readOnly: true, computed: heartbeatChangedAt }),
      uuid: text({ createOnly: true }),
      local_id: text(),
      device_name: shortText({ required: true }),
      note: text(),
      is_of__device_type: ref('device_type', ['device', 'describes__device'], { required: true }),
      belongs_to__application: ref('application', 'owns__device', { required: true }),
      is_online: bool({ readOnly: true, computed: isOnline, equals: isOnlineIs }),
      last_connectivity_event: date({ readOnly: true, computed: lastConnectivityEvent }),
      is_connected_to_vpn: bool({ readOnly: true }),
      last_vpn_event: date({ readOnly: true }),
      is_locked_until__date: date(),
      public_address: text(),
      ip_address: text(),
      mac_address: text(),
      is_web_accessible: bool(),
      memory_usage: integer(),
      memory_total: integer(),
      storage_block_device: text(),
      storage_usage: integer(),
      storage_total: integer(),
      cpu_usage: integer(),
      cpu_temp: integer(),
      is_undervolted: bool(),
      cpu_id: text(),
      is_running__release: ref('release', 'is_running_on__device'),
      download_progress: integer(),
      status: text(),
      os_version: text(),
      os_variant: text(),
      // Written by the device's own state reports only.
      agent_profile: json({ readOnly: true }),
      overall_status: text({
        computed: overallStatus,
        equals: overallStatusIs,
        countEquals: { via: 'belongs_to__application', count: fleetStatusCount },
      }),
      overall_progress: integer({ computed: overallProgress }),
      supervisor_version: text(),
      provisioning_progress: integer(),
      provisioning_state: text(),
      is_managed_by__service_instance: ref('service_instance', 'manages__device'),
      is_pinned_on__release: ref('release', 'is_pinned_to__device'),
      // Computed foreign key: the pinned release, else the fleet's target release.
      should_be_running__release: ref('release', 'should_be_running_on__device', {
        readOnly: true,
        computed: shouldBeRunningRelease,
      }),
      should_be_operated_by__release: ref('release', 'should_operate__device'),
      should_be_managed_by__release: ref('release', 'should_manage__device'),
      update_status: text(),
      last_update_status_event: date(),
      belongs_to__user: ref('user', 'owns__device'),
      // The geo-determined position, reported by the device alone (field-permissions.ts); users
      // set the custom_* pair, which wins when set.
      latitude: text({ maxLength: 40 }),
      longitude: text({ maxLength: 40 }),
      custom_latitude: text({ maxLength: 40 }),
      custom_longitude: text({ maxLength: 40 }),
      location: text({ readOnly: true }),
      is_accessible_by_support_until__date: date(),
      is_active: bool(),
      is_frozen: bool({ readOnly: true }),
      // Not v7 fields: where and how to reach the supervisor API, reported by the device.
      api_port: integer({ hidden: true }),
      api_secret: text({ hidden: true }),
    },
    scope: {
      application: (row) => `${row}."belongs_to__application"`,
      device: (row) => `${row}."id"`,
    },
    alternateKeys: [['uuid'], ['actor']],
  },
  device_tag: {
    alternateKeys: [['device', 'tag_key']],
    fields: {
      id,
      device: ref('device', ['device__has__tag_key', 'device_tag'], {
        required: true,
        createOnly: true,
      }),
      ...keyValue('tag_key'),
    },
    scope: deviceScoped,
  },
  image_install: {
    alternateKeys: [['device', 'installs__image']],
    fields: {
      id,
      device: ref('device', ['device__installs__image', 'image_install', 'installs__image'], {
        required: true,
        createOnly: true,
      }),
      installs__image: ref('image', ['device__installs__image', 'image_install'], {
        required: true,
        createOnly: true,
      }),
      install_date: date(),
      download_progress: integer(),
      status: text({ required: true }),
      is_provided_by__release: ref(
        'release',
        ['provides__device__installs__image', 'provides__image_install'],
        { required: true },
      ),
    },
    synonyms: { image: 'installs__image' },
    scope: deviceScoped,
  },
  // Created for every (device, service of its target release) so device service variables have a
  // row to hang on.
  service_install: {
    alternateKeys: [['device', 'installs__service']],
    fields: {
      id,
      created_at: createdAt,
      device: ref(
        'device',
        [
          'device__installs__application__has__service_name',
          'device__installs__service',
          'service_install',
          'installs__application__has__service_name',
          'installs__service',
        ],
        { required: true, createOnly: true },
      ),
      installs__service: ref(
        'service',
        [
          'device__installs__application__has__service_name',
          'device__installs__service',
          'service_install',
        ],
        { required: true, createOnly: true },
      ),
    },
    synonyms: {
      application__has__service_name: 'installs__service',
      service: 'installs__service',
      installs__application__has__service_name: 'installs__service',
    },
    scope: deviceScoped,
  },
  // One row per stretch of a device's life with a fleet; kept after the device is deleted.
  device_history: {
    fields: {
      id,
      created_at: createdAt,
      end_timestamp: date({ readOnly: true }),
      is_created_by__actor: ref('actor', undefined, { readOnly: true }),
      is_ended_by__actor: ref('actor', undefined, { readOnly: true }),
      tracks__device: ref('device', undefined, { readOnly: true }),
      tracks__actor: ref('actor', undefined, { readOnly: true }),
      uuid: text({ readOnly: true }),
      belongs_to__application: ref('application', undefined, { readOnly: true }),
      is_active: bool({ readOnly: true }),
      is_running__release: ref('release', undefined, { readOnly: true }),
      is_pinned_on__release: ref('release', undefined, { readOnly: true }),
      is_managed_by__service_instance: ref('service_instance', undefined, { readOnly: true }),
      os_version: text({ readOnly: true }),
      os_variant: text({ readOnly: true }),
      supervisor_version: text({ readOnly: true }),
      is_of__device_type: ref('device_type', 'device_history', { readOnly: true }),
      cpu_id: text({ readOnly: true }),
      should_be_managed_by__release: ref('release', undefined, { readOnly: true }),
    },
    scope: { application: (row) => `${row}."belongs_to__application"` },
    readOnly: true,
  },
  // The API/VPN instance a device is connected through.
  service_instance: {
    fields: { id, ip_address: text({ readOnly: true }) },
    readOnly: true,
  },
};
