import type {
  AdminTicketField,
  TicketFieldInput,
} from '@flotilla/shared/support/ticket-field-admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { supportKeys } from './query-keys.js';

const path = '/admin/v1/support/ticket-fields';

// Every field of the ticket form, inactive ones too (platform administrators).
export const useAdminTicketFields = () => {
  const client = useClient();
  return useQuery({
    queryKey: supportKeys.adminFields(),
    queryFn: () => client.request<AdminTicketField[]>({ path }),
  });
};

// Adds a field (no id) or replaces one; the form and the list reload.
export const useSaveTicketField = () => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: ({ id, field }: { id: number | undefined; field: TicketFieldInput }) =>
      client.request<{ id: number }>({
        method: id === undefined ? 'POST' : 'PUT',
        path: id === undefined ? path : `${path}/${id}`,
        body: field,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: supportKeys.all }),
  });
};
