// Group commit for the reference server: items queued while a flush is running go together into
// the next one. No timer: an idle server writes at once, a busy one writes bigger batches.

export type Batcher<T> = { add(item: T): Promise<void> };

export const createBatcher = <T>(
  flush: (items: T[]) => Promise<void>,
  maxInFlight: number,
  maxBatch: number,
): Batcher<T> => {
  let queue: { item: T; done: () => void; failed: (error: unknown) => void }[] = [];
  let inFlight = 0;

  const pump = (): void => {
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      inFlight += 1;
      flush(batch.map((entry) => entry.item))
        .then(
          () => {
            for (const entry of batch) entry.done();
          },
          (error: unknown) => {
            for (const entry of batch) entry.failed(error);
          },
        )
        .finally(() => {
          inFlight -= 1;
          pump();
        });
    }
  };

  return {
    add: (item) =>
      new Promise<void>((done, failed) => {
        queue.push({ item, done, failed });
        if (queue.length === 1) setImmediate(pump);
      }),
  };
};
