import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { StatusAnswer, StatusNotice, StatusNoticeInput } from '@flotilla/shared/status/status';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import { statusKeys } from './query-keys.js';

// The status page polls once a minute while shown, as the header's dot does.
export const statusPollingMs = 60_000;

const fetchStatus = (client: FlotillaClient) =>
  client.request<StatusAnswer>({ path: '/status/v1', auth: false });

// GET /status/v1 (features/status on the server): components and open notices.
export const useStatus = () => {
  const client = useClient();
  return useQuery({
    queryKey: statusKeys.current,
    queryFn: () => fetchStatus(client),
    ...polling(statusPollingMs),
  });
};

const noticesPath = '/admin/v1/status/notices';

export const useStatusNotices = () => {
  const client = useClient();
  return useQuery({
    queryKey: statusKeys.notices,
    queryFn: () => client.request<{ notices: StatusNotice[] }>({ path: noticesPath }),
  });
};

// Every change of a notice reads the notices and the status again.
const useNoticeWrite = <Input>(
  write: (client: FlotillaClient, input: Input) => Promise<unknown>,
) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (input: Input) => write(client, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: statusKeys.all }),
  });
};

export const usePostNotice = () =>
  useNoticeWrite((client, body: StatusNoticeInput) =>
    client.request<StatusNotice>({ method: 'POST', path: noticesPath, body }),
  );

export const useResolveNotice = () =>
  useNoticeWrite((client, { id, resolved }: { id: number; resolved: boolean }) =>
    client.request<StatusNotice>({
      method: 'PATCH',
      path: `${noticesPath}/${id}`,
      body: { resolved },
    }),
  );

export const useDeleteNotice = () =>
  useNoticeWrite((client, id: number) =>
    client.request<unknown>({ method: 'DELETE', path: `${noticesPath}/${id}` }),
  );
