// First-party usage counting: the console posts which page (its route pattern, never the address
// with ids in it) or which feature was used; nothing about who.
export const usageKinds = ['page', 'feature'] as const;
export type UsageKind = (typeof usageKinds)[number];

// A route pattern (/fleets/:fleetId/devices) or a feature name (create-fleet).
export const usageNamePattern = /^[a-z0-9/:_.-]{1,100}$/i;
export const usageEventsPerPost = 20;

export type UsageEvents = { events: { kind: UsageKind; name: string }[] };

// GET /admin/v1/usage: totals over the last `days` days, most used first.
export type UsageSummary = {
  days: number;
  rows: { kind: UsageKind; name: string; count: number }[];
};

// The console's named feature uses (kind "feature"): what a user did, never to what.
export const featureUseNames = [
  'create-fleet',
  'create-organization',
  'invite-member',
  'create-api-key',
  'device-action',
] as const;
export type FeatureUseName = (typeof featureUseNames)[number];
