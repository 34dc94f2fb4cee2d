import { bulkConcurrency } from '@flotilla/shared/constants/limits';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useClient } from '../../app/client.js';
import { useToasts } from '../../ui/toasts.js';
import { runWithConcurrency } from '../fleets/batch/run-with-concurrency.js';
import { batchReport } from './batch-report.js';
import { devicesKey } from './device-queries.js';
import {
  type ActionTarget,
  actionSpecs,
  type MenuActionId,
  runMenuAction,
} from './device-actions.js';

export type LockedRun = { action: MenuActionId; targets: ActionTarget[] };

export type DeviceActions = {
  // Runs the action on the devices, 50 at a time, reports the outcome as a toast and answers
  // the devices it succeeded on.
  run: (
    action: MenuActionId,
    targets: readonly ActionTarget[],
    force?: boolean,
  ) => Promise<ActionTarget[]>;
  pending: MenuActionId | null;
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

  const run = useCallback(
    async (action: MenuActionId, targets: readonly ActionTarget[], force = false) => {
      setPending(action);
      setLocked(null);
      try {
        const outcomes = await runWithConcurrency(targets, bulkConcurrency, (target) =>
          runMenuAction(client, action, target, force),
        );
        const report = batchReport(actionSpecs[action], outcomes);
        if (report.toast) show(report.toast.kind, report.toast.text);
        if (report.locked.length > 0) setLocked({ action, targets: report.locked });
        void queryClient.invalidateQueries({ queryKey: devicesKey });
        // Deleting changes the fleets' device counts.
        if (action === 'delete') void queryClient.invalidateQueries({ queryKey: ['applications'] });
        return outcomes.flatMap((outcome) => (outcome.ok ? [outcome.item] : []));
      } finally {
        setPending(null);
      }
    },
    [client, queryClient, show],
  );
  const dismissLock = useCallback(() => setLocked(null), []);
  return useMemo(
    () => ({ run, pending, locked, dismissLock }),
    [run, pending, locked, dismissLock],
  );
};
