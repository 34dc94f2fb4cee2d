import { describe, expect, it } from 'vitest';
import { jsonNestsDeeperThan } from './json-depth.js';

describe('jsonNestsDeeperThan', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(jsonNestsDeeperThan('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(jsonNestsDeeperThan('{"a":"[[[[[[\\"[[["}', 1)).toBe(false);
    expect(jsonNestsDeeperThan(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, 100)).toBe(true);
  });
});
