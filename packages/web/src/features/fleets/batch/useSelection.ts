import { useCallback, useMemo, useState } from 'react';

export type Selection = {
  active: boolean;
  // The selected ids still in the list, in list order.
  selected: number[];
  isSelected: (id: number) => boolean;
  toggle: (id: number) => void;
  selectAll: () => void;
  clear: () => void;
  start: () => void;
  // Leaves selection mode and forgets the selection.
  stop: () => void;
};

// Selection mode of a fleet list. Ids that leave the list (deleted elsewhere, filtered
// away) drop out of the selection by themselves.
export const useSelection = (listIds: readonly number[]): Selection => {
  const [active, setActive] = useState(false);
  const [chosen, setChosen] = useState<ReadonlySet<number>>(() => new Set());
  const selected = useMemo(() => listIds.filter((id) => chosen.has(id)), [listIds, chosen]);
  const toggle = useCallback((id: number) => {
    setChosen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);
  const selectAll = useCallback(() => setChosen(new Set(listIds)), [listIds]);
  const clear = useCallback(() => setChosen(new Set()), []);
  const start = useCallback(() => setActive(true), []);
  const stop = useCallback(() => {
    setActive(false);
    setChosen(new Set());
  }, []);
  return useMemo(
    () => ({
      active,
      selected,
      isSelected: (id: number) => active && selected.includes(id),
      toggle,
      selectAll,
      clear,
      start,
      stop,
    }),
    [active, selected, toggle, selectAll, clear, start, stop],
  );
};
