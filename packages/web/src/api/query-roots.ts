// The first element of every query key, one per kind of data the console caches. Each feature's
// key factory (its `query-keys.ts`) builds on one of these roots, and a mutation that changes data
// another feature shows invalidates that root: features keep each other's cache true without
// importing each other.
export const queryRoots = {
  session: ['session'],
  config: ['config'],
  organizations: ['organizations'],
  fleets: ['fleets'],
  devices: ['devices'],
  releases: ['releases'],
  variables: ['variables'],
  apiKeys: ['api-keys'],
  sshKeys: ['ssh-keys'],
  oauth: ['oauth'],
  deviceTypes: ['device-types'],
  applicationTypes: ['application-types'],
  diagnostics: ['diagnostics'],
  docs: ['docs'],
  changelog: ['changelog'],
  platformAdmin: ['platform-admin'],
  builds: ['builds'],
  hostOsAccess: ['hostos-access'],
  mail: ['mail'],
  hostOsCatalogue: ['host-os-catalogue'],
  status: ['status'],
  featureFlags: ['feature-flags'],
  errorReports: ['error-reports'],
  usage: ['usage'],
  identityProviders: ['identity-providers'],
  support: ['support'],
  webhooks: ['webhooks'],
  rollouts: ['rollouts'],
  alerts: ['alerts'],
  credits: ['credits'],
  billing: ['billing'],
  auditLog: ['audit-log'],
} as const;

export type QueryRoot = keyof typeof queryRoots;
