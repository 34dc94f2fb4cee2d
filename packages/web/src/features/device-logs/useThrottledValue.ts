import { useEffect, useRef, useState } from 'react';

// `value`, changed at most once per `intervalMs`: the first change at once, later ones when the
// interval is over (the last one always lands).
export const useThrottledValue = <T>(value: T, intervalMs: number): T => {
  const [applied, setApplied] = useState(value);
  const lastApplied = useRef(0);
  useEffect(() => {
    const wait = lastApplied.current + intervalMs - Date.now();
    if (wait <= 0) {
      lastApplied.current = Date.now();
      setApplied(value);
      return undefined;
    }
    const timer = window.setTimeout(() => {
      lastApplied.current = Date.now();
      setApplied(value);
    }, wait);
    return () => window.clearTimeout(timer);
  }, [value, intervalMs]);
  return applied;
};
