import { errorText } from '@flotilla/sdk/errors';
import { useCallback, useMemo, useState } from 'react';
import { useToasts } from '../../ui/toasts.js';
import { applyStaged } from './apply-staged.js';
import {
  type ChangeKind,
  changeOf,
  type StagedChange,
  type StagedChanges,
  stage as stageChange,
  undo as undoChange,
} from './staged-edits.js';

export type StagedEdits<T> = {
  changes: StagedChanges<T>;
  dirty: boolean;
  applying: boolean;
  kindOf: (key: string) => ChangeKind | undefined;
  changeOf: (key: string) => StagedChange<T> | undefined;
  stage: (key: string, kind: ChangeKind, change: T) => void;
  undo: (key: string) => void;
  revertAll: () => void;
  applyAll: () => Promise<void>;
};

export type StagedEditsOptions<T> = {
  write: (staged: StagedChange<T>) => Promise<unknown>;
  // Reload the table's data (after every apply, whatever its outcome).
  reload: () => Promise<unknown>;
};

export const allChangesSuccessful = 'All changes successful';
export const someChangesFailed = (error: unknown): string =>
  `Some changes failed to apply: ${errorText(error) ?? 'unknown error'}`;

// The staged-edit workflow of a variables table: stage, undo, revert all, apply all (10 writes
// at a time), report "All changes successful" or "Some changes failed to apply: {error}" and
// reload. Changes whose write failed stay staged so they can be fixed or undone.
export const useStagedEdits = <T>({ write, reload }: StagedEditsOptions<T>): StagedEdits<T> => {
  const [changes, setChanges] = useState<StagedChanges<T>>([]);
  const [applying, setApplying] = useState(false);
  const toasts = useToasts();

  const stage = useCallback((key: string, kind: ChangeKind, change: T) => {
    setChanges((current) => stageChange(current, { key, kind, change }));
  }, []);
  const undo = useCallback((key: string) => {
    setChanges((current) => undoChange(current, key));
  }, []);
  const revertAll = useCallback(() => setChanges([]), []);

  const applyAll = useCallback(async () => {
    const pending = changes;
    if (pending.length === 0) return;
    setApplying(true);
    try {
      const { failed, firstError } = await applyStaged(pending, write);
      const failedKeys = new Set(failed.map((staged) => staged.key));
      // Edits staged while the writes ran are kept as they are.
      setChanges((current) =>
        current.filter((staged) => !pending.includes(staged) || failedKeys.has(staged.key)),
      );
      if (failed.length === 0) toasts.show('success', allChangesSuccessful);
      else toasts.show('error', someChangesFailed(firstError));
      await reload().catch(() => undefined);
    } finally {
      setApplying(false);
    }
  }, [changes, write, reload, toasts]);

  return useMemo(
    () => ({
      changes,
      dirty: changes.length > 0,
      applying,
      kindOf: (key: string) => changeOf(changes, key)?.kind,
      changeOf: (key: string) => changeOf(changes, key),
      stage,
      undo,
      revertAll,
      applyAll,
    }),
    [changes, applying, stage, undo, revertAll, applyAll],
  );
};
