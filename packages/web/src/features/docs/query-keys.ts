import { queryRoots } from '../../api/query-roots.js';

export const docKeys = {
  all: queryRoots.docs,
  page: (page: string) => [...queryRoots.docs, page] as const,
};
