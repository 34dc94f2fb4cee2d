import { queryRoots } from '../../api/query-roots.js';

export const changelogKeys = {
  all: queryRoots.changelog,
  text: [...queryRoots.changelog, 'text'] as const,
};
