// Every feature flag there is, with what it switches and its value when nobody set one. Platform
// administrators set them for everyone, an organization or a user (Admin → Feature flags); the
// server and the console read them through OpenFeature.
export const featureFlags = {
  // The "apps" class (alpha): the Apps sections and lists of the console. The local preference
  // (Preferences → Experimental) also shows them for one browser.
  apps: { description: 'Apps (alpha): show the Apps sections of the console', defaultValue: false },
} as const satisfies Record<string, { description: string; defaultValue: boolean }>;

export type FeatureFlagKey = keyof typeof featureFlags;

export const isFeatureFlagKey = (key: string): key is FeatureFlagKey =>
  Object.prototype.hasOwnProperty.call(featureFlags, key);

export type FeatureFlagScope = 'global' | 'organization' | 'user';

// One setting as the Admin area lists it.
export type FeatureFlagSetting = {
  id: number;
  scope: FeatureFlagScope;
  organization: { id: number; handle: string } | null;
  user: { id: number; username: string } | null;
  enabled: boolean;
};

// GET /admin/v1/feature-flags
export type AdminFeatureFlag = {
  key: FeatureFlagKey;
  description: string;
  defaultValue: boolean;
  settings: FeatureFlagSetting[];
};

// GET /feature-flags/v1: every flag's value for the caller.
export type FeatureFlagValues = Record<FeatureFlagKey, boolean>;

export const featureFlagKeys: readonly FeatureFlagKey[] =
  Object.keys(featureFlags).filter(isFeatureFlagKey);
