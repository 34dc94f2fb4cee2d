import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { changelogKeys } from './query-keys.js';

// This product's CHANGELOG.md (served by the API at /CHANGELOG.md, public).
export const useChangelog = () => {
  const client = useClient();
  return useQuery({
    queryKey: changelogKeys.text,
    queryFn: async () => {
      const text: unknown = await client.request<unknown>({ path: '/CHANGELOG.md', auth: false });
      if (typeof text !== 'string') throw new Error('The changelog is not Markdown');
      return text;
    },
    staleTime: 5 * 60_000,
  });
};
