import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../../api/client.js';

export type FleetPatch = {
  app_name?: string;
  should_track_latest_release?: boolean;
  should_be_running__release?: number | null;
  is_stored_at__repository_url?: string | null;
  is_public?: boolean;
  is_accessible_by_support_until__date?: string | null;
  application_type?: number;
  is_for__device_type?: number;
  organization?: number;
};

// PATCH the application, then refresh every application query (list, cards, title).
export const useUpdateFleet = (id: number) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    // The screen shows this error itself.
    meta: { inlineError: true },
    mutationFn: async (body: FleetPatch) => {
      await client.pine.patch({ resource: 'application', id, body });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['applications'] }),
  });
};
