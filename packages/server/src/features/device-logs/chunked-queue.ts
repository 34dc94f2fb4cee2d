// A FIFO of items kept as the arrays they arrived in, so that taking a batch from the front or
// dropping the oldest costs what is removed, not what stays (Array.prototype.splice at the front
// of a 50,000-item queue, on every write at saturation, costs far more).
export class ChunkedQueue<Item> {
  #chunks: (readonly Item[])[] = [];
  // The oldest chunk still holding items, and how many of its items are already gone.
  #first = 0;
  #offset = 0;
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(items: readonly Item[]): void {
    if (items.length === 0) return;
    this.#chunks.push(items);
    this.#length += items.length;
  }

  // Removes and returns up to `max` of the oldest items, in order.
  take(max: number): Item[] {
    const taken: Item[] = [];
    this.#remove(max, (chunk, from, to) => {
      for (let index = from; index < to; index++) {
        const item = chunk[index];
        if (item !== undefined) taken.push(item);
      }
    });
    return taken;
  }

  // Removes the `count` oldest items.
  drop(count: number): void {
    this.#remove(count, () => undefined);
  }

  // Puts items back in front of the oldest (a batch that could not be stored), in order.
  unshift(items: readonly Item[]): void {
    if (items.length === 0) return;
    const rest = this.#chunks.slice(this.#first);
    const head = rest[0];
    if (head && this.#offset > 0) rest[0] = head.slice(this.#offset);
    this.#chunks = [items, ...rest];
    this.#first = 0;
    this.#offset = 0;
    this.#length += items.length;
  }

  #remove(count: number, each: (chunk: readonly Item[], from: number, to: number) => void): void {
    let left = Math.min(count, this.#length);
    while (left > 0) {
      const chunk = this.#chunks[this.#first];
      if (!chunk) break;
      const to = Math.min(chunk.length, this.#offset + left);
      each(chunk, this.#offset, to);
      left -= to - this.#offset;
      this.#length -= to - this.#offset;
      if (to === chunk.length) {
        this.#first += 1;
        this.#offset = 0;
      } else this.#offset = to;
    }
    // Forget consumed chunks now and then (amortized: at most as often as half the array).
    if (this.#first > 64 && this.#first * 2 > this.#chunks.length) {
      this.#chunks = this.#chunks.slice(this.#first);
      this.#first = 0;
    }
  }
}
