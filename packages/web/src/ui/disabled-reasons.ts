import {
  disabledReasonCacheMs,
  disabledReasonConcurrency,
} from '@flotilla/shared/constants/limits';
import { runWithConcurrency } from './run-with-concurrency.js';

// Why an action is disabled on one item (a device), or null when it may run there. A lookup that
// fails says why instead of passing the item as allowed.
export type ReasonLookup<T> = (item: T) => Promise<string | null>;

export type DisabledReasons = ReadonlyMap<string, string | null>;

// Asks `lookup` about every item, 10 at a time, and keeps the answers for the last set of items
// asked about for 5 seconds: opening a menu again, or several menus over one selection, asks
// nothing more. `now` is the clock the freshness is measured by.
export const createDisabledReasonLookup = <T>(
  lookup: ReasonLookup<T>,
  keyOf: (item: T) => string,
  now: () => number = Date.now,
) => {
  let last: { key: string; at: number; answer: Promise<DisabledReasons> } | null = null;
  return (items: readonly T[]): Promise<DisabledReasons> => {
    const key = items.map(keyOf).join('\n');
    const at = now();
    if (last !== null && last.key === key && at - last.at < disabledReasonCacheMs) {
      return last.answer;
    }
    const answer = runWithConcurrency(items, disabledReasonConcurrency, lookup).then(
      (outcomes) =>
        new Map(
          outcomes.map((outcome): [string, string | null] => [
            keyOf(outcome.item),
            outcome.ok
              ? outcome.value
              : `Could not check: ${outcome.error instanceof Error ? outcome.error.message : 'unknown error'}`,
          ]),
        ),
    );
    last = { key, at, answer };
    return answer;
  };
};
