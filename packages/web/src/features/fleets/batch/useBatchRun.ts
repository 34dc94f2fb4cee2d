import { bulkConcurrency } from '@flotilla/shared/constants/limits';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useToasts } from '../../../ui/toasts.js';
import type { BatchFleet } from './batch-queries.js';
import { outcomeToast } from './batch-rules.js';
import { runWithConcurrency } from '../../../ui/run-with-concurrency.js';

export type BatchRun = {
  fleets: readonly BatchFleet[];
  run: (fleet: BatchFleet) => Promise<unknown>;
  texts: { done: string; failed: string; items: string };
};

// Runs one write per fleet, `bulkConcurrency` at a time, reports the outcome in one toast and
// refreshes every application query. Never throws: failures are part of the toast.
export const useBatchRun = (onDone: () => void) => {
  const toasts = useToasts();
  const queryClient = useQueryClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async ({ fleets, run, texts }: BatchRun) => {
      const outcomes = await runWithConcurrency(fleets, bulkConcurrency, run);
      const toast = outcomeToast(outcomes, texts);
      toasts.show(toast.kind, toast.text);
      await queryClient.invalidateQueries({ queryKey: ['applications'] });
    },
    onSettled: onDone,
  });
};
