// An organization with a past-due invoice: a warning first, an error counting the days left from
// the 30th day, frozen from the 60th (its devices get no new releases until it pays).
export const freezeAfterDays = 60;
export const errorAfterDays = 30;

const dayMs = 24 * 60 * 60 * 1000;

export type PastDueNotice =
  | { severity: 'warning'; daysPastDue: number }
  | { severity: 'error'; daysPastDue: number; daysUntilFreeze: number }
  | { severity: 'frozen'; daysPastDue: number };

export const daysPastDue = (since: Date, now: Date): number =>
  Math.max(Math.floor((now.getTime() - since.getTime()) / dayMs), 0);

export const pastDueNotice = (since: Date | null, now: Date): PastDueNotice | undefined => {
  if (since === null || since.getTime() > now.getTime()) return undefined;
  const days = daysPastDue(since, now);
  if (days >= freezeAfterDays) return { severity: 'frozen', daysPastDue: days };
  if (days >= errorAfterDays) {
    return { severity: 'error', daysPastDue: days, daysUntilFreeze: freezeAfterDays - days };
  }
  return { severity: 'warning', daysPastDue: days };
};

// The moment an organization past due since `since` freezes.
export const freezesAt = (since: Date): Date => new Date(since.getTime() + freezeAfterDays * dayMs);
