export type Outcome<T, R> =
  { item: T; ok: true; value: R } | { item: T; ok: false; error: unknown };

// Runs `fn` on every item with at most `limit` calls in flight (bulk
// operations run 50 at a time). Never rejects: every item gets its outcome, in input order, so
// the caller can report partial failures.
export const runWithConcurrency = async <T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<Outcome<T, R>[]> => {
  const outcomes: Outcome<T, R>[] = new Array<Outcome<T, R>>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      const item = items[index] as T;
      try {
        outcomes[index] = { item, ok: true, value: await fn(item, index) };
      } catch (error) {
        outcomes[index] = { item, ok: false, error };
      }
    }
  };
  const workers = Math.min(Math.max(1, Math.floor(limit)), items.length);
  await Promise.all(Array.from({ length: workers }, worker));
  return outcomes;
};
