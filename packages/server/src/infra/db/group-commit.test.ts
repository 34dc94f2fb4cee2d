import { describe, expect, it } from 'vitest';
import { createGroupCommit, type Outcome } from './group-commit.js';

type Item = { key: number; value: string };

// A write function the test releases by hand, recording every batch it was given.
const controlledWrite = () => {
  const batches: Item[][] = [];
  const releases: ((fail?: Error) => void)[] = [];
  const write = (items: readonly Item[]): Promise<Outcome<string>[]> => {
    batches.push([...items]);
    return new Promise((resolve, reject) => {
      releases.push((fail) => {
        if (fail) reject(fail);
        else resolve(items.map((item) => ({ ok: true, value: `${item.value}!` })));
      });
    });
  };
  return { write, batches, releases };
};

const settled = async <T>(promise: Promise<T>) => {
  const result = await Promise.allSettled([promise]);
  return result[0];
};

describe('group commit', () => {
  it('writes the items of one turn together and resolves each only after its batch', async () => {
    const { write, batches, releases } = controlledWrite();
    const commits = createGroupCommit(write, { maxInFlight: 2, maxBatch: 10, keyOf: (i) => i.key });
    let resolved = 0;
    const all = [1, 2, 3].map((key) =>
      commits.add({ key, value: `v${key}` }).then((value) => {
        resolved += 1;
        return value;
      }),
    );
    await new Promise((done) => setImmediate(done));
    expect(batches.map((batch) => batch.map((item) => item.key))).toEqual([[1, 2, 3]]);
    expect(resolved).toBe(0);
    releases[0]?.();
    expect(await Promise.all(all)).toEqual(['v1!', 'v2!', 'v3!']);
  });

  it('rejects every item of a batch whose write failed: none is acknowledged', async () => {
    const { write, releases } = controlledWrite();
    const commits = createGroupCommit(write, { maxInFlight: 1, maxBatch: 10, keyOf: (i) => i.key });
    const first = settled(commits.add({ key: 1, value: 'a' }));
    const second = settled(commits.add({ key: 2, value: 'b' }));
    await new Promise((done) => setImmediate(done));
    releases[0]?.(new Error('commit failed'));
    expect((await first).status).toBe('rejected');
    expect((await second).status).toBe('rejected');
  });

  it('holds a key back while an earlier item of it is being written, keeping its order', async () => {
    const { write, batches, releases } = controlledWrite();
    const commits = createGroupCommit(write, { maxInFlight: 4, maxBatch: 10, keyOf: (i) => i.key });
    const first = commits.add({ key: 1, value: 'first' });
    await new Promise((done) => setImmediate(done));
    // Device 1's second and third items, and another key, arrive while the first is written.
    const later = [
      commits.add({ key: 1, value: 'second' }),
      commits.add({ key: 2, value: 'other' }),
      commits.add({ key: 1, value: 'third' }),
    ];
    await new Promise((done) => setImmediate(done));
    expect(batches.map((batch) => batch.map((item) => item.value))).toEqual([['first'], ['other']]);
    releases[0]?.();
    await first;
    await new Promise((done) => setImmediate(done));
    expect(batches[2]?.map((item) => item.value)).toEqual(['second', 'third']);
    releases[1]?.();
    releases[2]?.();
    expect(await Promise.all(later)).toEqual(['second!', 'other!', 'third!']);
  });

  it('splits a long queue into batches of at most maxBatch', async () => {
    const { write, batches, releases } = controlledWrite();
    const commits = createGroupCommit(write, { maxInFlight: 1, maxBatch: 2, keyOf: (i) => i.key });
    const all = [1, 2, 3, 4, 5].map((key) => commits.add({ key, value: `${key}` }));
    await new Promise((done) => setImmediate(done));
    expect(batches).toHaveLength(1);
    for (let n = 0; n < 3; n += 1) {
      releases[n]?.();
      await new Promise((done) => setImmediate(done));
    }
    await Promise.all(all);
    expect(batches.map((batch) => batch.length)).toEqual([2, 2, 1]);
  });
});
