import { describe, expect, it } from 'vitest';
import { ChunkedQueue } from './chunked-queue.js';

const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from }, (_, index) => from + index);

describe('ChunkedQueue', () => {
  it('takes, drops and puts back items in order across the arrays they came in', () => {
    const queue = new ChunkedQueue<number>();
    queue.push([1, 2, 3]);
    queue.push([]);
    queue.push([4, 5]);
    queue.push([6, 7, 8, 9]);
    expect(queue.length).toBe(9);
    expect(queue.take(2)).toEqual([1, 2]);
    queue.drop(2);
    expect(queue.length).toBe(5);
    const batch = queue.take(3);
    expect(batch).toEqual([5, 6, 7]);
    queue.unshift(batch);
    expect(queue.take(100)).toEqual([5, 6, 7, 8, 9]);
    expect(queue.length).toBe(0);
    expect(queue.take(1)).toEqual([]);
    queue.drop(1);
    expect(queue.length).toBe(0);
  });

  it('stays in order over many pushes, partial takes and drops', () => {
    const queue = new ChunkedQueue<number>();
    const expected: number[] = [];
    let next = 0;
    for (let round = 0; round < 500; round++) {
      const chunk = range(next, next + (round % 7));
      next += chunk.length;
      queue.push(chunk);
      expected.push(...chunk);
      if (round % 3 === 0) expect(queue.take(4)).toEqual(expected.splice(0, 4));
      if (round % 5 === 0) {
        queue.drop(2);
        expected.splice(0, 2);
      }
      expect(queue.length).toBe(expected.length);
    }
    expect(queue.take(expected.length)).toEqual(expected);
  });
});
