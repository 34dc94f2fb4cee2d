import type { Clock } from './clock.js';

export type TaskHandle = { cancel(): void };

type Task = { due: number; seq: number; run: () => void; cancelled: boolean };

// Tasks this close to the head are run in the same wake-up, so thousands of devices whose
// timers cluster cost one timer callback instead of one each.
const coalesceMs = 2;

// One timer for any number of devices: a min-heap of due tasks and a single clock timer armed
// for the earliest one. A simulator with thousands of devices would otherwise keep thousands of
// intervals (polls, reports, logs, metrics) alive at once.
export class Scheduler {
  readonly #clock: Clock;
  readonly #onError: (error: unknown) => void;
  #heap: Task[] = [];
  #seq = 0;
  #cancelled = 0;
  #armedFor = Number.POSITIVE_INFINITY;
  #disarm: (() => void) | null = null;
  #stopped = false;

  constructor(clock: Clock, onError: (error: unknown) => void = () => undefined) {
    this.#clock = clock;
    this.#onError = onError;
  }

  get clock(): Clock {
    return this.#clock;
  }

  now(): number {
    return this.#clock.now();
  }

  // Pending tasks (cancelled ones excluded).
  get size(): number {
    return this.#heap.length - this.#cancelled;
  }

  after(delayMs: number, run: () => void): TaskHandle {
    if (this.#stopped) return { cancel: () => undefined };
    // One NaN due date would corrupt the heap order and stall every device: refuse loudly.
    if (Number.isNaN(delayMs)) {
      this.#onError(new Error('Scheduler.after called with a NaN delay; running it now'));
      delayMs = 0;
    }
    const task: Task = {
      due: this.#clock.now() + Math.max(0, delayMs),
      seq: this.#seq++,
      run,
      cancelled: false,
    };
    this.#push(task);
    this.#arm();
    return {
      cancel: () => {
        if (task.cancelled) return;
        task.cancelled = true;
        this.#cancelled++;
        this.#compactIfSparse();
      },
    };
  }

  stop(): void {
    this.#stopped = true;
    this.#disarm?.();
    this.#disarm = null;
    this.#heap = [];
    this.#cancelled = 0;
  }

  #arm(): void {
    const head = this.#heap[0];
    if (!head || this.#stopped) return;
    if (head.due >= this.#armedFor) return;
    this.#disarm?.();
    this.#armedFor = head.due;
    this.#disarm = this.#clock.setTimer(() => this.#fire(), head.due - this.#clock.now());
  }

  #fire(): void {
    this.#disarm = null;
    this.#armedFor = Number.POSITIVE_INFINITY;
    const limit = this.#clock.now() + coalesceMs;
    for (let head = this.#heap[0]; head && head.due <= limit; head = this.#heap[0]) {
      this.#pop();
      if (head.cancelled) {
        this.#cancelled--;
        continue;
      }
      head.cancelled = true;
      try {
        head.run();
      } catch (error) {
        this.#onError(error);
      }
      if (this.#stopped) return;
    }
    this.#arm();
  }

  #compactIfSparse(): void {
    if (this.#cancelled < 1024 || this.#cancelled * 2 < this.#heap.length) return;
    const live = this.#heap.filter((task) => !task.cancelled);
    this.#heap = [];
    this.#cancelled = 0;
    for (const task of live) this.#push(task);
  }

  #before(a: Task, b: Task): boolean {
    return a.due < b.due || (a.due === b.due && a.seq < b.seq);
  }

  #push(task: Task): void {
    const heap = this.#heap;
    heap.push(task);
    let index = heap.length - 1;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = heap[parentIndex];
      if (!parent || !this.#before(task, parent)) break;
      heap[index] = parent;
      heap[parentIndex] = task;
      index = parentIndex;
    }
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop();
    if (!last || heap.length === 0) return;
    heap[0] = last;
    let index = 0;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let smallest = index;
      const leftTask = heap[left];
      const rightTask = heap[right];
      const current = heap[smallest];
      if (!current) return;
      if (leftTask && this.#before(leftTask, heap[smallest] ?? current)) smallest = left;
      if (rightTask && this.#before(rightTask, heap[smallest] ?? current)) smallest = right;
      if (smallest === index) return;
      const swap = heap[smallest];
      if (!swap) return;
      heap[smallest] = current;
      heap[index] = swap;
      index = smallest;
    }
  }
}
