import type { JsonObject, ToOne } from './field-types.js';

// v7 cpu_architecture (catalogue, read-only).
export type CpuArchitecture = {
  id: number;
  slug: string;
};

// v7 device_type (catalogue, read-only).
export type DeviceType = {
  id: number;
  slug: string;
  name: string;
  is_of__cpu_architecture: ToOne<CpuArchitecture>;
  logo: string | null;
  contract: JsonObject | null;
  belongs_to__device_family: ToOne<{ id: number; slug: string; name: string }> | null;
  is_private: boolean;
};
