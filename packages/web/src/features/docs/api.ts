import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { docKeys } from './query-keys.js';

// One built-in documentation page's Markdown (GET /docs/v1/:page), for the pages that exist.
export const useDocSource = (page: string, exists: boolean) => {
  const client = useClient();
  return useQuery({
    queryKey: docKeys.page(page),
    // Public, sent without the token (as GET /config).
    queryFn: async () => {
      const text: unknown = await client.request<unknown>({
        path: `/docs/v1/${encodeURIComponent(page)}`,
        auth: false,
      });
      if (typeof text !== 'string') throw new Error('The documentation page is not Markdown');
      return text;
    },
    enabled: exists,
    staleTime: 5 * 60_000,
  });
};
