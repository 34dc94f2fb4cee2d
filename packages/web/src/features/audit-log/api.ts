import type { AuditExportFormat, AuditPage } from '@flotilla/shared/audit-log/audit-entry';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { downloadText } from '../../ui/download.js';
import { auditLogKeys } from './query-keys.js';

// The filters the page sends (empty strings left out); times as ISO strings.
export type AuditQuery = {
  user?: number;
  fleet?: number;
  device?: number;
  username?: string;
  fleetName?: string;
  deviceUuid?: string;
  resource?: string;
  from?: string;
  to?: string;
};

const pageSize = 50;

const queryOf = (filter: AuditQuery): Record<string, string | number> =>
  Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined));

// Whose log: an organization's (its administrators), a fleet's history (the fleet's), or the
// whole installation's (platform administrators; id 0).
export type AuditSource = { kind: 'organization' | 'fleet' | 'platform'; id: number };

const entriesPath = (source: AuditSource): string =>
  source.kind === 'platform'
    ? '/audit-log/v1/entries'
    : source.kind === 'organization'
      ? `/audit-log/v1/organizations/${source.id}/entries`
      : `/audit-log/v1/fleets/${source.id}/entries`;

// Organizations' and the installation's logs export; a fleet's history does not.
export const exportable = (source: AuditSource): boolean => source.kind !== 'fleet';

// The log's entries, newest first, page after page ("Load more").
export const useAuditEntries = (source: AuditSource, filter: AuditQuery) => {
  const client = useClient();
  return useInfiniteQuery({
    queryKey: auditLogKeys.entries(source, filter),
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      client.request<AuditPage>({
        path: entriesPath(source),
        query: {
          ...queryOf(filter),
          limit: pageSize,
          ...(pageParam > 0 ? { before: pageParam } : {}),
        },
      }),
    getNextPageParam: (last) => last.nextBefore ?? undefined,
  });
};

// The filtered log as a CSV or NDJSON file (the server bounds its size).
export const useAuditExport = (source: AuditSource) => {
  const client = useClient();
  return useMutation({
    mutationFn: async ({ filter, format }: { filter: AuditQuery; format: AuditExportFormat }) => {
      const text = await client.request<unknown>({
        path:
          source.kind === 'platform'
            ? '/audit-log/v1/export'
            : `/audit-log/v1/organizations/${source.id}/export`,
        query: { ...queryOf(filter), format },
        timeoutMs: 300_000,
      });
      downloadText(
        typeof text === 'string' ? text : JSON.stringify(text),
        `audit-log-${source.kind === 'platform' ? 'all' : source.id}.${format}`,
        format === 'csv' ? 'text/csv' : 'application/x-ndjson',
      );
    },
  });
};
