import { describe, expect, it } from 'vitest';
import { tagKeyProblem, tagRows, tagWritesFor } from './tag-edits.js';

const device = (id: number, tags: [string, string][]) => ({
  id,
  device_tag: tags.map(([tag_key, value], index) => ({ id: id * 10 + index, tag_key, value })),
});

describe('tag edits', () => {
  const a = device(1, [
    ['site', 'north'],
    ['rack', 'b'],
  ]);
  const b = device(2, [['site', 'south']]);

  it('lists every key with the shared value, or null where the devices differ', () => {
    expect(tagRows([a, b])).toEqual([
      { key: 'rack', value: 'b', removed: false },
      { key: 'site', value: null, removed: false },
    ]);
  });

  it('creates, updates and deletes per device, and leaves differing values untouched', () => {
    const edits = [
      { key: 'rack', value: 'c', removed: false },
      { key: 'site', value: null, removed: false },
      { key: 'owner', value: 'ops', removed: false },
    ];
    expect(tagWritesFor(a, edits)).toEqual([
      { kind: 'update', tagId: 11, value: 'c' },
      { kind: 'create', device: 1, key: 'owner', value: 'ops' },
    ]);
    expect(tagWritesFor(b, edits)).toEqual([
      { kind: 'create', device: 2, key: 'rack', value: 'c' },
      { kind: 'create', device: 2, key: 'owner', value: 'ops' },
    ]);
    expect(tagWritesFor(b, [{ key: 'site', value: null, removed: true }])).toEqual([
      { kind: 'delete', tagId: 20 },
    ]);
    expect(tagWritesFor(a, tagRows([a]))).toEqual([]);
  });

  it('refuses an empty or duplicate key', () => {
    expect(tagKeyProblem(' ', [])).toBe('The tag key is required');
    expect(tagKeyProblem('site', tagRows([a]))).toBe('This tag key already exists');
    expect(tagKeyProblem('site', [{ key: 'site', value: 'x', removed: true }])).toBeNull();
  });
});
