// Staged edits of a variables table: additions, updates and deletions wait here, highlighted in the table and each undoable, until
// the user applies or reverts them all. Pure functions over an ordered list, keyed by row.

export type ChangeKind = 'added' | 'updated' | 'deleted';

// `change` is the table's own description of the write (which resource, id, name, value...).
export type StagedChange<T> = { key: string; kind: ChangeKind; change: T };

export type StagedChanges<T> = readonly StagedChange<T>[];

export const changeOf = <T>(changes: StagedChanges<T>, key: string): StagedChange<T> | undefined =>
  changes.find((staged) => staged.key === key);

// Stages one more edit of a row, merged with what the row already has staged: a row added
// and then edited is still an addition; a row added and then deleted was never there.
export const stage = <T>(changes: StagedChanges<T>, next: StagedChange<T>): StagedChanges<T> => {
  const existing = changeOf(changes, next.key);
  if (!existing) return [...changes, next];
  if (existing.kind === 'added' && next.kind === 'deleted') return undo(changes, next.key);
  const merged: StagedChange<T> =
    existing.kind === 'added' && next.kind === 'updated' ? { ...next, kind: 'added' } : next;
  return changes.map((staged) => (staged.key === next.key ? merged : staged));
};

export const undo = <T>(changes: StagedChanges<T>, key: string): StagedChanges<T> =>
  changes.filter((staged) => staged.key !== key);

const order: Record<ChangeKind, number> = { deleted: 0, updated: 1, added: 2 };

// The order writes go out in: deletions first, so a name deleted and added again does not
// collide with itself; then updates, then additions.
export const inApplyOrder = <T>(changes: StagedChanges<T>): StagedChange<T>[] =>
  [...changes].sort((a, b) => order[a.kind] - order[b.kind]);

// "2 added, 1 updated" for the sticky bar.
export const summarize = (changes: StagedChanges<unknown>): string => {
  const counts = (['added', 'updated', 'deleted'] as const)
    .map((kind) => [kind, changes.filter((staged) => staged.kind === kind).length] as const)
    .filter(([, count]) => count > 0);
  return counts.map(([kind, count]) => `${count} ${kind}`).join(', ');
};
