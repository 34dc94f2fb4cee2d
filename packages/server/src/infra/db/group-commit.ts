// Group commit: work items queued while earlier batches are being written go together into the
// next batch, one statement and one commit for many requests. There is no timer: an idle server
// writes an item at once, a busy one writes bigger batches. An item's promise settles only after
// its batch's outcome is known (resolved after the commit, rejected when it failed), so nothing
// acknowledged to a client can be lost by a crash.
//
// Items with the same key (one device's reports) keep their order: an item never goes into a
// batch while an earlier item of its key is in a batch still being written, and within a batch
// they stay in queue order. The write function gets every item of a batch and returns one
// outcome per item, in the same order.

export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export type GroupCommit<T, R> = {
  add(item: T): Promise<R>;
  // Items waiting for a batch, and batches being written (for tests and metrics).
  pending(): { queued: number; inFlight: number };
};

export type GroupCommitOptions<T> = {
  // Batches written at once (each holds one database connection).
  maxInFlight: number;
  maxBatch: number;
  keyOf: (item: T) => string | number;
};

type Waiting<T, R> = {
  item: T;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
};

export const createGroupCommit = <T, R>(
  write: (items: readonly T[]) => Promise<Outcome<R>[]>,
  options: GroupCommitOptions<T>,
): GroupCommit<T, R> => {
  const { maxInFlight, maxBatch, keyOf } = options;
  let queue: Waiting<T, R>[] = [];
  let inFlight = 0;
  // Keys with an item in a batch being written, and how many such items.
  const busy = new Map<string | number, number>();
  let scheduled = false;

  // The next batch: queue order, skipping (and keeping back, with every later item of the
  // same key) the items whose key is still being written.
  const takeBatch = (): Waiting<T, R>[] => {
    const batch: Waiting<T, R>[] = [];
    const rest: Waiting<T, R>[] = [];
    const held = new Set<string | number>();
    for (const waiting of queue) {
      const key = keyOf(waiting.item);
      if (batch.length >= maxBatch || busy.has(key) || held.has(key)) {
        held.add(key);
        rest.push(waiting);
      } else batch.push(waiting);
    }
    queue = rest;
    return batch;
  };

  const settle = (batch: Waiting<T, R>[], outcomes: Outcome<R>[] | undefined, error: unknown) => {
    batch.forEach((waiting, index) => {
      const outcome = outcomes?.[index];
      if (outcome?.ok === true) waiting.resolve(outcome.value);
      else if (outcome) waiting.reject(outcome.error);
      else waiting.reject(error ?? new Error('The batch returned no outcome for this item'));
    });
  };

  const release = (batch: Waiting<T, R>[]): void => {
    for (const waiting of batch) {
      const key = keyOf(waiting.item);
      const count = (busy.get(key) ?? 1) - 1;
      if (count === 0) busy.delete(key);
      else busy.set(key, count);
    }
  };

  const pump = (): void => {
    scheduled = false;
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = takeBatch();
      if (batch.length === 0) return;
      for (const waiting of batch) {
        const key = keyOf(waiting.item);
        busy.set(key, (busy.get(key) ?? 0) + 1);
      }
      inFlight += 1;
      write(batch.map((waiting) => waiting.item))
        .then(
          (outcomes) => settle(batch, outcomes, undefined),
          (error: unknown) => settle(batch, undefined, error),
        )
        .finally(() => {
          inFlight -= 1;
          release(batch);
          pump();
        });
    }
  };

  return {
    add: (item) =>
      new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        // Whatever arrives in this turn of the event loop joins the same batch.
        if (!scheduled) {
          scheduled = true;
          setImmediate(pump);
        }
      }),
    pending: () => ({ queued: queue.length, inFlight }),
  };
};
