import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { AdminFeatureFlag, FeatureFlagScope } from '@flotilla/shared/feature-flags/flags';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { refreshFeatureFlags } from './api-provider.js';
import { featureFlagKeys } from './query-keys.js';

// The administrators' flag routes (features/feature-flags on the server).
export type FlagSettingInput = {
  flag: string;
  scope: FeatureFlagScope;
  // The organization's handle or the user's username, for those scopes.
  target: string;
  enabled: boolean;
};

const bodyOf = ({ scope, target, enabled }: FlagSettingInput) =>
  scope === 'organization'
    ? { scope, organization: target, enabled }
    : scope === 'user'
      ? { scope, username: target, enabled }
      : { scope, enabled };

export const useAdminFlags = () => {
  const client = useClient();
  return useQuery({
    queryKey: featureFlagKeys.admin,
    queryFn: () =>
      client.request<{ flags: AdminFeatureFlag[] }>({ path: '/admin/v1/feature-flags' }),
  });
};

// A change reads the list again, and this console's own flags (the administrator may be one of
// those it applies to).
const useFlagWrite = <Input>(write: (client: FlotillaClient, input: Input) => Promise<unknown>) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (input: Input) => write(client, input),
    onSettled: async () => {
      await refreshFeatureFlags();
      await queryClient.invalidateQueries({ queryKey: featureFlagKeys.all });
    },
  });
};

export const useSetFlag = () =>
  useFlagWrite((client, input: FlagSettingInput) =>
    client.request<{ id: number }>({
      method: 'POST',
      path: `/admin/v1/feature-flags/${encodeURIComponent(input.flag)}/settings`,
      body: bodyOf(input),
    }),
  );

export const useRemoveFlagSetting = () =>
  useFlagWrite((client, id: number) =>
    client.request<unknown>({ method: 'DELETE', path: `/admin/v1/feature-flags/settings/${id}` }),
  );
