import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { bulkConcurrency } from '@flotilla/shared/constants/limits';
import {
  type ContainerActionId,
  isSupervisorAction,
  supervisorActionOf,
} from '@flotilla/shared/devices/device-action-permissions';
import { isQueueable } from '@flotilla/shared/devices/queued-actions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useClient } from '../../api/client.js';
import { useToasts } from '../../ui/toasts.js';
import { runWithConcurrency } from '../../ui/run-with-concurrency.js';
import { batchReport } from './batch-report.js';
import {
  type ActionRequest,
  type ActionTarget,
  actionSpecs,
  type MenuActionId,
} from './device-actions.js';
import { runFieldAction } from './api-field-actions.js';
import { runHostUpdate } from './api-host-os.js';
import { runOrQueue } from './api-queued-actions.js';
import type { ImageInstall } from '../../device/device-rows.js';
import { devicesKeys } from './query-keys.js';
import { countFeatureUse } from '../../api/feature-use.js';

const supervisor = (client: FlotillaClient, path: string, body: unknown): Promise<unknown> =>
  client.request<unknown>({ method: 'POST', path: `/supervisor${path}`, body });

// One action on one device, through the supervisor proxy or a /v7 write (or, when the user chose
// to queue it for an offline device, the queueing route). An update lock answers 423.
export const runMenuAction = async (
  client: FlotillaClient,
  request: ActionRequest,
  target: ActionTarget,
  force: boolean,
): Promise<'done' | 'queued'> => {
  const { id: deviceId, fleetId: appId } = target;
  // Sent only when forcing, as balena's SDK does for restart and purge.
  const forced = force ? { force: true } : {};
  if (isSupervisorAction(request.id) && 'queueHours' in request && request.queueHours) {
    const action = supervisorActionOf[request.id];
    if (!isQueueable(action)) throw new Error(`${action} cannot be queued`);
    const params = request.id === 'identify' ? {} : { force };
    return runOrQueue(client, action, deviceId, params, request.queueHours);
  }
  switch (request.id) {
    case 'identify':
      await supervisor(client, '/v1/blink', { uuid: target.uuid });
      return 'done';
    case 'reboot':
      await supervisor(client, '/v1/reboot', { deviceId, data: { force } });
      return 'done';
    case 'shutdown':
      await supervisor(client, '/v1/shutdown', { deviceId, appId, data: { force } });
      return 'done';
    case 'restart':
      await supervisor(client, '/v1/restart', { deviceId, appId, data: { appId, ...forced } });
      return 'done';
    case 'purge':
      await supervisor(client, '/v1/purge', { deviceId, appId, data: { appId, ...forced } });
      return 'done';
    case 'delete':
      await client.pine.delete({ resource: 'device', id: deviceId });
      return 'done';
    case 'os-update':
    case 'supervisor-update':
      return runHostUpdate(client, request, deviceId);
    default:
      await runFieldAction(client, request, deviceId);
      return 'done';
  }
};

// Start, stop or restart one service (one image install) of a device.
const runContainerAction = async (
  client: FlotillaClient,
  action: ContainerActionId,
  target: ActionTarget,
  imageId: number,
): Promise<void> => {
  const { id: deviceId, fleetId: appId } = target;
  await supervisor(client, `/v2/applications/${appId}/${action}-service`, {
    deviceId,
    appId,
    data: { appId, imageId },
  });
};

export type LockedRun = { request: ActionRequest; targets: ActionTarget[] };

// Actions that change the fleets' device counts or state shown on the fleet pages.
const touchesFleets: ReadonlySet<MenuActionId> = new Set(['delete', 'move', 'deactivate']);

export type DeviceActions = {
  // Runs the action on the devices, 50 at a time, reports the outcome as a toast and answers
  // the devices it succeeded on.
  run: (
    request: ActionRequest,
    targets: readonly ActionTarget[],
    force?: boolean,
  ) => Promise<ActionTarget[]>;
  pending: MenuActionId | null;
  // Devices done and to do of the running action (the batch progress).
  progress: { done: number; total: number } | null;
  // The devices an update lock stopped in the last run, for the force link.
  locked: LockedRun | null;
  dismissLock: () => void;
};

export const useDeviceActions = (): DeviceActions => {
  const client = useClient();
  const queryClient = useQueryClient();
  const { show } = useToasts();
  const [pending, setPending] = useState<MenuActionId | null>(null);
  const [locked, setLocked] = useState<LockedRun | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);

  const run = useCallback(
    async (request: ActionRequest, targets: readonly ActionTarget[], force = false) => {
      setPending(request.id);
      setLocked(null);
      let done = 0;
      setProgress({ done, total: targets.length });
      try {
        const outcomes = await runWithConcurrency(targets, bulkConcurrency, async (target) => {
          try {
            return await runMenuAction(client, request, target, force);
          } finally {
            done += 1;
            setProgress({ done, total: targets.length });
          }
        });
        countFeatureUse('device-action');
        const report = batchReport(actionSpecs[request.id], outcomes);
        if (report.toast) show(report.toast.kind, report.toast.text);
        if (report.locked.length > 0) setLocked({ request, targets: report.locked });
        void queryClient.invalidateQueries({ queryKey: devicesKeys.all });
        if (touchesFleets.has(request.id)) {
          void queryClient.invalidateQueries({ queryKey: devicesKeys.fleets });
        }
        return outcomes.flatMap((outcome) => (outcome.ok ? [outcome.item] : []));
      } finally {
        setPending(null);
        setProgress(null);
      }
    },
    [client, queryClient, show],
  );
  const dismissLock = useCallback(() => setLocked(null), []);
  return useMemo(
    () => ({ run, pending, progress, locked, dismissLock }),
    [run, pending, progress, locked, dismissLock],
  );
};

// Start, stop or restart one service (one image install) of the device, or queue it for when an
// offline device comes back (`queueHours`); `onDone` reports it, then every device query refreshes.
export const useContainerAction = (
  target: ActionTarget,
  onDone: (action: ContainerActionId, install: ImageInstall, outcome: 'done' | 'queued') => void,
) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      action,
      install,
      queueHours,
    }: {
      action: ContainerActionId;
      install: ImageInstall;
      queueHours?: number;
    }): Promise<'done' | 'queued'> => {
      const imageId = install.installs__image[0]?.id ?? 0;
      if (queueHours === undefined) {
        await runContainerAction(client, action, target, imageId);
        return 'done';
      }
      return runOrQueue(client, `${action}-service`, target.id, { imageId }, queueHours);
    },
    onSuccess: (outcome, { action, install }) => {
      onDone(action, install, outcome);
      void queryClient.invalidateQueries({ queryKey: devicesKeys.all });
    },
  });
};
