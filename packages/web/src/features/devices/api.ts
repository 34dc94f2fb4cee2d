import { bulkConcurrency } from '@flotilla/shared/constants/limits';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useClient } from '../../api/client.js';
import { fetchDevicePage, fetchFleetTagKeys } from '../../device/api.js';
import { streamedFleetListPolling } from '../../ui/polling.js';
import { runWithConcurrency } from '../../ui/run-with-concurrency.js';
import { devicesKeys } from './query-keys.js';
import { type TagEdit, tagWritesFor, type TagWrite } from './tag-edits.js';
import type { DeviceListParams } from './useDeviceListParams.js';

// The server as this browser reaches it: what download-config writes as apiEndpoint too.
export const useServerUrl = (): string => {
  const client = useClient();
  return client.apiUrl || window.location.origin;
};

// The console configuration (the public device URL base among others); it does not change while
// the console is open.
export const useConsoleConfig = (enabled: boolean) => {
  const client = useClient();
  return useQuery({
    queryKey: devicesKeys.config,
    queryFn: () => client.config(),
    staleTime: Infinity,
    enabled,
  });
};

// One page of the fleet's devices, refreshed by the event stream (polled like the fleet lists
// while it is down); the previous page stays on screen while the next one loads.
export const useFleetDevicePage = (fleetId: number, params: DeviceListParams) => {
  const client = useClient();
  return useQuery({
    queryKey: devicesKeys.page(fleetId, params),
    queryFn: () => fetchDevicePage(client, { fleetId: fleetId, ...params }),
    placeholderData: keepPreviousData,
    ...streamedFleetListPolling(),
  });
};

// The tag keys used in the fleet (the tag filter's suggestions).
export const useFleetTagKeys = (fleetId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: devicesKeys.tagKeys(fleetId),
    queryFn: () => fetchFleetTagKeys(client, fleetId),
  });
};

// Every device type with its CPU architecture, for the add-device dialog's choice.
export const useDeviceTypesWithArchitecture = () => {
  const client = useClient();
  return useQuery({
    queryKey: devicesKeys.deviceTypesWithArchitecture(),
    staleTime: 60_000,
    queryFn: () =>
      client.pine.get({
        resource: 'device_type',
        options: {
          $select: ['id', 'slug', 'name'],
          $expand: { is_of__cpu_architecture: { $select: ['slug'] } },
          $orderby: { name: 'asc' },
        },
      }),
  });
};

export type ConfigRequest = {
  appId: number;
  deviceType?: string;
  appUpdatePollInterval: number;
  // ISO time after which the new provisioning key registers no device; absent: never.
  provisioningKeyExpiryDate?: string;
};

// The fleet's config.json for a new device; the dialog shows a failure inline.
export const useDownloadConfig = (onConfig: (config: unknown) => void) => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (body: ConfigRequest) =>
      client.request<unknown>({ method: 'POST', path: '/download-config', body }),
    onSuccess: onConfig,
  });
};

// Renames the device, then every device query refreshes (the table and the page show the name).
export const useRenameDevice = (deviceId: number, onRenamed: () => void) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (next: string) =>
      client.pine.patch({ resource: 'device', id: deviceId, body: { device_name: next } }),
    onSuccess: async () => {
      onRenamed();
      await queryClient.invalidateQueries({ queryKey: devicesKeys.all });
    },
  });
};

// Saves the device's note and refreshes the device page.
export const useSaveDeviceNote = (deviceId: number, uuid: string) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useCallback(
    async (text: string) => {
      await client.pine.patch({ resource: 'device', id: deviceId, body: { note: text } });
      void queryClient.invalidateQueries({ queryKey: devicesKeys.detail(uuid) });
    },
    [client, queryClient, deviceId, uuid],
  );
};

// Applies the tag edits to each device, 50 at a time, answers each device's outcome, and then
// refreshes every device query.
export const useApplyTagEdits = () => {
  const client = useClient();
  const queryClient = useQueryClient();
  const write = useCallback(
    async (operation: TagWrite): Promise<void> => {
      if (operation.kind === 'create') {
        await client.pine.post({
          resource: 'device_tag',
          body: { device: operation.device, tag_key: operation.key, value: operation.value },
        });
      } else if (operation.kind === 'update') {
        await client.pine.patch({
          resource: 'device_tag',
          id: operation.tagId,
          body: { value: operation.value },
        });
      } else {
        await client.pine.delete({ resource: 'device_tag', id: operation.tagId });
      }
    },
    [client],
  );
  return useCallback(
    async <T extends Parameters<typeof tagWritesFor>[0]>(
      devices: readonly T[],
      edits: readonly TagEdit[],
    ) => {
      const outcomes = await runWithConcurrency(devices, bulkConcurrency, async (device) => {
        for (const operation of tagWritesFor(device, edits)) await write(operation);
      });
      void queryClient.invalidateQueries({ queryKey: devicesKeys.all });
      return outcomes;
    },
    [queryClient, write],
  );
};
