import { useCallback, useEffect, useRef, useState } from 'react';

// Notes (of a device, of a release) are saved 500 ms after typing stops.
export const notesDebounceMs = 500;

export type SaveState = 'idle' | 'pending' | 'saving' | 'saved' | 'error';

export type DebouncedSave = {
  // Saves the value once no new value has arrived for the delay.
  schedule: (value: string) => void;
  state: SaveState;
  error: unknown;
};

// Debounced saving (notes: 500 ms after typing stops). Saves run one after
// the other so an older text never lands after a newer one, and a change still waiting when the
// component goes away (the user leaves the page) is saved at once.
export const useDebouncedSave = (
  save: (value: string) => Promise<void>,
  delayMs: number,
): DebouncedSave => {
  const [state, setState] = useState<SaveState>('idle');
  const [error, setError] = useState<unknown>(null);
  const saveRef = useRef(save);
  const waiting = useRef<{ value: string; timer: number } | null>(null);
  const chain = useRef<Promise<void>>(Promise.resolve());
  useEffect(() => {
    saveRef.current = save;
  }, [save]);

  const flush = useCallback(() => {
    const entry = waiting.current;
    if (!entry) return;
    window.clearTimeout(entry.timer);
    waiting.current = null;
    setState('saving');
    chain.current = chain.current.then(async () => {
      try {
        await saveRef.current(entry.value);
        // A newer value may already be waiting: it reports for itself.
        if (!waiting.current) setState('saved');
      } catch (failure) {
        setError(failure);
        setState('error');
      }
    });
  }, []);

  const schedule = useCallback(
    (value: string) => {
      if (waiting.current) window.clearTimeout(waiting.current.timer);
      waiting.current = { value, timer: window.setTimeout(flush, delayMs) };
      setError(null);
      setState('pending');
    },
    [delayMs, flush],
  );

  useEffect(() => flush, [flush]);
  return { schedule, state, error };
};
