import { useEffect, useState } from 'react';

// The support-access date's minimum is now, and the dialog checks a
// changed date 300 ms after the last change, against the clock at that moment (so a date that
// was in the future when the dialog opened but has since passed is refused too).
export const supportAccessCheckDelayMs = 300;

export const supportAccessDateError = (until: string, now: number): string | null => {
  if (until === '') return 'Choose a date and time';
  const time = new Date(until).getTime();
  if (Number.isNaN(time)) return 'Choose a date and time';
  return time < now ? 'Choose a date in the future' : null;
};

type Checked = { value: string; error: string | null };

// The check of the chosen date: `checking` while a change waits for its debounced check (the
// action stays disabled meanwhile), then `error` for the value that was checked. The value the
// dialog opens with is checked at once.
export const useSupportAccessCheck = (
  until: string,
  now: () => number = Date.now,
): { checking: boolean; error: string | null } => {
  const [checked, setChecked] = useState<Checked>(() => ({
    value: until,
    error: supportAccessDateError(until, now()),
  }));
  useEffect(() => {
    const timer = setTimeout(
      () => setChecked({ value: until, error: supportAccessDateError(until, now()) }),
      supportAccessCheckDelayMs,
    );
    return () => clearTimeout(timer);
  }, [until, now]);
  const current = checked.value === until;
  return { checking: !current, error: current ? checked.error : null };
};
