import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { FlotillaApiError } from '@flotilla/sdk/errors';
import type {
  QueueableAction,
  QueuedAction,
  RunOutcome,
} from '@flotilla/shared/devices/queued-actions';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { pollingWhile } from '../../ui/polling.js';
import { queuedActionText } from './queued-action-labels.js';
import { devicesKeys } from './query-keys.js';

// Actions queued for offline devices: the device page's list with each outcome, the devices
// table's marks, cancelling, and running an action with the queue as the fallback.

const queueKeys = {
  device: (deviceId: number) => [...devicesKeys.all, 'queued', 'device', deviceId] as const,
  fleet: (fleetId: number) => [...devicesKeys.all, 'queued', 'fleet', fleetId] as const,
};

// The list routes answer an array of queued actions; anything else (a proxy's page, an older
// server without the route) reads as none.
const queuedList = (value: unknown): QueuedAction[] =>
  Array.isArray(value)
    ? value.filter(
        (item: unknown): item is QueuedAction =>
          typeof item === 'object' && item !== null && 'id' in item && 'deviceId' in item,
      )
    : [];

const readQueue = async (
  client: FlotillaClient,
  query: { deviceId: number } | { fleetId: number },
): Promise<QueuedAction[]> =>
  queuedList(await client.request<unknown>({ path: '/device-actions/v1/queued', query }));

// Refreshed while something waits, so a delivery shows without a reload.
const waitingRefreshMs = 10_000;
const isWaiting = (action: QueuedAction): boolean =>
  action.status === 'queued' || action.status === 'delivering';

export const deviceQueueQuery = (client: FlotillaClient, deviceId: number) =>
  queryOptions({
    queryKey: queueKeys.device(deviceId),
    queryFn: () => readQueue(client, { deviceId }),
    ...pollingWhile<QueuedAction[]>((data) =>
      (data ?? []).some(isWaiting) ? waitingRefreshMs : false,
    ),
  });

export const useDeviceQueue = (deviceId: number) => {
  const client = useClient();
  return useQuery(deviceQueueQuery(client, deviceId));
};

// The actions waiting for each device of the fleet, oldest first, as the queue names them.
export const fleetQueueQuery = (client: FlotillaClient, fleetId: number) =>
  queryOptions({
    queryKey: queueKeys.fleet(fleetId),
    queryFn: async () => {
      const waiting = await readQueue(client, { fleetId });
      const byDevice = new Map<number, string[]>();
      for (const action of waiting) {
        const texts = byDevice.get(action.deviceId) ?? [];
        texts.push(queuedActionText(action));
        byDevice.set(action.deviceId, texts);
      }
      return byDevice;
    },
    ...pollingWhile<Map<number, string[]>>((data) =>
      (data?.size ?? 0) > 0 ? waitingRefreshMs : false,
    ),
  });

// The actions waiting for each device of the fleet (empty until known).
export const useFleetQueue = (fleetId: number): ReadonlyMap<number, readonly string[]> => {
  const client = useClient();
  return useQuery(fleetQueueQuery(client, fleetId)).data ?? noneWaiting;
};
const noneWaiting: ReadonlyMap<number, readonly string[]> = new Map();

export const useCancelQueued = () => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      client.request<QueuedAction>({
        method: 'POST',
        path: `/device-actions/v1/queued/${id}/cancel`,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: devicesKeys.all }),
  });
};

export type RunParams = {
  force?: boolean;
  imageId?: number;
  serviceName?: string;
  // OS update: the balenaOS version (with its variant); supervisor update: the release.
  targetVersion?: string;
  releaseId?: number;
};

// Runs the action on one device, queued for `hours` when the device is offline. A device that
// refused (an update lock: 423) or failed throws as the supervisor proxy would.
export const runOrQueue = async (
  client: FlotillaClient,
  action: QueueableAction,
  deviceId: number,
  params: RunParams,
  hours: number,
): Promise<'done' | 'queued'> => {
  const path = '/device-actions/v1/run';
  const [outcome] = await client.request<RunOutcome[]>({
    method: 'POST',
    path,
    body: { action, deviceIds: [deviceId], params, queue: { expiresInHours: hours } },
  });
  if (outcome?.outcome === 'done' || outcome?.outcome === 'queued') return outcome.outcome;
  const message = outcome?.message ?? 'The action failed';
  throw new FlotillaApiError({
    status: outcome?.statusCode ?? 500,
    body: message,
    message,
    method: 'POST',
    path,
    token: null,
  });
};
