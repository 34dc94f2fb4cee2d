import { queryRoots } from '../../api/query-roots.js';

export const errorReportKeys = {
  all: queryRoots.errorReports,
  list: (source: 'console' | 'server' | 'all') => [...queryRoots.errorReports, source] as const,
};
