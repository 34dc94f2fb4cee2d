import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { docPages } from '../../api/doc-pages.js';
import { supportKeys } from './query-keys.js';

export type DocHit = { page: string; title: string; excerpt: string };

type DocText = { page: string; title: string; text: string };

// The console's own documentation pages (GET /docs/v1/:page, public), read once when the drawer's
// search is first used.
export const useDocTexts = (enabled: boolean) => {
  const client = useClient();
  return useQuery({
    queryKey: supportKeys.docs(),
    enabled,
    staleTime: 10 * 60_000,
    queryFn: async (): Promise<DocText[]> =>
      Promise.all(
        Object.entries(docPages).map(async ([page, { title }]) => {
          const text: unknown = await client.request<unknown>({
            path: `/docs/v1/${encodeURIComponent(page)}`,
            auth: false,
          });
          return { page, title, text: typeof text === 'string' ? text : '' };
        }),
      ),
  });
};

const excerptAround = (text: string, at: number): string => {
  const start = Math.max(0, at - 40);
  const piece = text
    .slice(start, at + 80)
    .replace(/\s+/g, ' ')
    .trim();
  return `${start > 0 ? '…' : ''}${piece}…`;
};

// Pages whose title or text holds every word of the query, title matches first.
export const searchDocs = (texts: readonly DocText[], query: string): DocHit[] => {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word.length > 1);
  if (words.length === 0) return [];
  const hits = texts.flatMap((doc) => {
    const title = doc.title.toLowerCase();
    const body = doc.text.toLowerCase();
    if (!words.every((word) => title.includes(word) || body.includes(word))) return [];
    const first = words[0] ?? '';
    const inTitle = words.some((word) => title.includes(word));
    return [
      {
        rank: inTitle ? 0 : 1,
        hit: {
          page: doc.page,
          title: doc.title,
          excerpt: excerptAround(doc.text, Math.max(0, body.indexOf(first))),
        },
      },
    ];
  });
  return hits.sort((a, b) => a.rank - b.rank).map((entry) => entry.hit);
};
