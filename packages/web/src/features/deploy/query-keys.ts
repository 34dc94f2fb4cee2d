import { queryRoots } from '../../api/query-roots.js';

// The deploy page's queries: the fleets it can deploy to live under the fleets root (a fleet
// write refreshes them), the followed build under the releases root.
export const deployKeys = {
  targets: () => [...queryRoots.fleets, 'deploy-targets'] as const,
  build: (releaseId: number) => [...queryRoots.releases, 'deploy-build', releaseId] as const,
};
