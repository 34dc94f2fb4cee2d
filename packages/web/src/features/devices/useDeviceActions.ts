import { bulkConcurrency } from '@flotilla/shared/constants/limits';
import { useQueryClient } from '@tanstack/react-query';
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
  runMenuAction,
} from './device-actions.js';
import { deviceKeys } from '../../device/query-keys.js';

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
            await runMenuAction(client, request, target, force);
          } finally {
            done += 1;
            setProgress({ done, total: targets.length });
          }
        });
        const report = batchReport(actionSpecs[request.id], outcomes);
        if (report.toast) show(report.toast.kind, report.toast.text);
        if (report.locked.length > 0) setLocked({ request, targets: report.locked });
        void queryClient.invalidateQueries({ queryKey: deviceKeys.all });
        if (touchesFleets.has(request.id)) {
          void queryClient.invalidateQueries({ queryKey: ['applications'] });
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
