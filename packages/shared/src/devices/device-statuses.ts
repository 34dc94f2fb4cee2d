// The seven overall statuses a device's `overall_status` takes, in the order the console's cards
// and status filters show them (the fleet list's counts ask for each).
export const deviceStatuses = [
  'operational',
  'updating',
  'configuring',
  'post-provisioning',
  'reduced-functionality',
  'disconnected',
  'inactive',
] as const;

export type DeviceStatus = (typeof deviceStatuses)[number];
