import type { Application } from './application.js';
import type { Device } from './device.js';
import type { DateTime, JsonObject, ToOne } from './field-types.js';
import type { Release } from './release.js';

// Rows hanging under one device: tags, configuration variables and what it runs.

// v7 device_tag.
export type DeviceTag = {
  id: number;
  device: ToOne<Device>;
  tag_key: string;
  value: string;
};

export type DeviceTagWrite = { device: number; tag_key: string; value: string };

// v7 device_config_variable.
export type DeviceConfigVariable = {
  id: number;
  device: ToOne<Device>;
  name: string;
  value: string;
};

// v7 service: one service of a fleet's releases.
export type Service = {
  id: number;
  created_at: DateTime;
  application: ToOne<Application>;
  service_name: string;
  // Reverse navigations, present only when expanded.
  is_built_by__image?: Image[];
};

// v7 image: the build of a service in a release.
export type Image = {
  id: number;
  created_at: DateTime;
  is_a_build_of__service: ToOne<Service>;
  status: string;
  image_size: number | null;
  is_stored_at__image_location: string;
  dockerfile: string | null;
  error_message: string | null;
  build_log: string | null;
  start_timestamp: DateTime | null;
  end_timestamp: DateTime | null;
  push_timestamp: DateTime | null;
  project_type: string | null;
  content_hash: string | null;
  contract: JsonObject | null;
  // Reverse navigation, present only when expanded: the releases holding the image.
  release_image?: ReleaseImage[];
};

// v7 release_image: an image being part of a release.
export type ReleaseImage = {
  id: number;
  created_at: DateTime;
  image: ToOne<Image>;
  is_part_of__release: ToOne<Release>;
};

// v7 image_install: an image on a device and its state.
export type ImageInstall = {
  id: number;
  device: ToOne<Device>;
  installs__image: ToOne<Image>;
  is_provided_by__release: ToOne<Release>;
  install_date: DateTime | null;
  download_progress: number | null;
  status: string;
};
