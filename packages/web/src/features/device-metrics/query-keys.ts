import { queryRoots } from '../../api/query-roots.js';

// Under the devices root so the device page's refresh after an action reads the history again too.
export const deviceMetricsKeys = {
  history: (uuid: string) => [...queryRoots.devices, 'metrics', uuid] as const,
};
