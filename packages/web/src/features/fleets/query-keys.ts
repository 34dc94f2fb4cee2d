import { queryRoots } from '../../api/query-roots.js';
import { fleetKeys } from '../../fleet/query-keys.js';

// The fleet screens' own queries. Whatever a fleet write changes lives under the fleets root (a
// fleet's sub-data under its detail key), so the one refresh after every fleet write reloads it.
export const fleetsFeatureKeys = {
  organizationName: (organizationId: number | undefined) =>
    [...queryRoots.organizations, 'name', organizationId] as const,
  // The names taken in an organization, for the create dialog's clash check.
  namesInOrganization: (organizationId: number | '') =>
    [...queryRoots.fleets, 'names-in-organization', organizationId] as const,
  // The other fleets' ids and names, for the rename clash check (settings page and batch rename).
  names: (organizationId: number) => [...queryRoots.fleets, 'names', organizationId] as const,
  // A repository URL's balena.yml as the server read it from the code host.
  repositoryContract: (url: string) => [...queryRoots.config, 'repository-contract', url] as const,
  variableNamingRules: (deviceTypeSlug: string) =>
    [...queryRoots.config, 'variable-naming', deviceTypeSlug] as const,
  batch: (userId: number, ids: readonly number[]) =>
    [...queryRoots.fleets, 'batch', userId, ids] as const,
  deviceTypesOfArchitecture: (architectureId: number) =>
    [...queryRoots.deviceTypes, 'architecture', architectureId] as const,
  applicationTypes: () => queryRoots.applicationTypes,
  transferOrganizations: (userId: number) =>
    [...queryRoots.organizations, 'memberships-with-fleets', userId] as const,
  serviceCount: (fleetId: number) => [...fleetKeys.detail(fleetId), 'service-count'] as const,
  deviceNames: (fleetId: number) => [...fleetKeys.detail(fleetId), 'device-names'] as const,
  statusCounts: (fleetId: number) => [...fleetKeys.detail(fleetId), 'status-counts'] as const,
  releasesOverview: (fleetId: number) =>
    [...fleetKeys.detail(fleetId), 'releases-overview'] as const,
};
