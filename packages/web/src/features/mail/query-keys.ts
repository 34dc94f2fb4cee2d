import { queryRoots } from '../../api/query-roots.js';

export const mailKeys = {
  all: queryRoots.mail,
  outbox: (page: number) => [...queryRoots.mail, 'outbox', page] as const,
};
