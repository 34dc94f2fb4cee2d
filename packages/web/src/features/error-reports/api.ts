import type { ErrorReport } from '@flotilla/shared/error-reports/error-reports';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import { errorReportKeys } from './query-keys.js';

// GET /admin/v1/error-reports (features/error-reports on the server), most recently seen first.
export const useErrorReports = (source: 'console' | 'server' | 'all') => {
  const client = useClient();
  return useQuery({
    queryKey: errorReportKeys.list(source),
    queryFn: () =>
      client.request<{ errors: ErrorReport[] }>({
        path: '/admin/v1/error-reports',
        ...(source === 'all' ? {} : { query: { source } }),
      }),
    ...polling(),
  });
};

export const useDismissError = () => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (id: number) =>
      client.request<unknown>({ method: 'DELETE', path: `/admin/v1/error-reports/${id}` }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: errorReportKeys.all }),
  });
};
