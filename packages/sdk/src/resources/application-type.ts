import type { Application } from './application.js';

// v7 application_type: the kind of fleet (catalogue, read-only).
export type ApplicationType = {
  id: number;
  name: string;
  slug: string;
  description: string | null;
  supports_web_url: boolean;
  supports_multicontainer: boolean;
  supports_gateway_mode: boolean;
  needs__os_version_range: string | null;
  requires_payment: boolean;
  is_legacy: boolean;
  maximum_device_count: number | null;
  is_of__application?: Application[];
};
