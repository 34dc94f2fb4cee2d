import { z } from 'zod';
import { agentProfile } from './agent-profile.js';

// The state report a device sends and the server validates with stateReportBody.
// PATCH /device/v3/state: { [uuid]: { ...device fields, apps: { [appUuid]: { release_uuid,
// releases: { [commit]: { update_status, services: { [name]: { image, status,
// download_progress } } } } } } } }. Unknown keys are dropped (newer agents send more); a known
// key of the wrong type is a 400. Every field is optional: agents report only what changed.

const text = (max: number) => z.string().max(max);
const nullableText = (max = 255) => text(max).nullable().optional();

// Whole numbers in an int4 column; a fractional reading (cpu_temp 47.3) is rounded, not refused.
const int = z
  .number()
  .min(-2_147_483_648)
  .max(2_147_483_647)
  .transform((value) => Math.round(value));
const nullableInt = int.nullable().optional();
const percent = z
  .number()
  .min(0)
  .max(100)
  .transform((value) => Math.round(value))
  .nullable()
  .optional();

export const updateStatuses = [
  'rejected',
  'downloading',
  'downloaded',
  'applying changes',
  'aborted',
  'done',
] as const;
const updateStatus = z.enum(updateStatuses).nullable().optional();

const serviceReport = z.object({
  image: text(1000).optional(),
  status: nullableText(100),
  download_progress: percent,
});

const releaseReport = z.object({
  update_status: updateStatus,
  services: z.record(text(255), serviceReport).optional(),
});

const appReport = z.object({
  release_uuid: nullableText(255),
  releases: z.record(text(255), releaseReport).optional(),
});

// Device columns a report may set, with their validation. The metric ones (heartbeat's
// metricColumns) are throttled.
export const deviceReportFields = {
  status: nullableText(),
  os_version: nullableText(),
  os_variant: nullableText(),
  supervisor_version: nullableText(),
  provisioning_progress: percent,
  provisioning_state: nullableText(),
  ip_address: nullableText(2000),
  mac_address: nullableText(2000),
  api_port: nullableInt,
  api_secret: nullableText(),
  cpu_id: nullableText(),
  is_undervolted: z.boolean().optional(),
  memory_usage: nullableInt,
  memory_total: nullableInt,
  storage_block_device: nullableText(),
  storage_usage: nullableInt,
  storage_total: nullableInt,
  cpu_usage: nullableInt,
  cpu_temp: nullableInt,
  download_progress: percent,
  update_status: updateStatus,
} as const;

export type DeviceColumn = keyof typeof deviceReportFields;

const deviceReport = z.object({
  ...deviceReportFields,
  // A Flotilla agent's description of itself (agent-profile-rules.ts); stored as it comes.
  agent_profile: agentProfile.optional(),
  apps: z.record(text(255), appReport).optional(),
});

export const stateReportBody = z.record(text(255), deviceReport);

// Every key a device's entry of a report may carry, and those of its apps, releases and services.
export const deviceReportKeys = deviceReport.keyof().options;
export type DeviceReportKey = (typeof deviceReportKeys)[number];
export const nestedReportKeys = {
  app: appReport.keyof().options,
  release: releaseReport.keyof().options,
  service: serviceReport.keyof().options,
};

// As the server reads a report (numbers rounded)...
export type DeviceReport = z.output<typeof deviceReport>;
export type AppReport = z.output<typeof appReport>;

// ...and as a device writes one.
export type UpdateStatus = (typeof updateStatuses)[number];
export type StateReportV3 = z.input<typeof stateReportBody>;
export type DeviceReportV3 = z.input<typeof deviceReport>;
export type AppReportV3 = z.input<typeof appReport>;
export type ReleaseReportV3 = z.input<typeof releaseReport>;
export type ServiceReportV3 = z.input<typeof serviceReport>;

// PATCH /device/v3/tags: { [uuid]: { [tagKey]: value } }, only the tags that changed.
export const tagsReportBody = z.record(text(255), z.record(text(100).min(1), text(10_000)));
