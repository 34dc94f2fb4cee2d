import { describe, expect, it } from 'vitest';
import {
  apiKeyPrefix,
  generateApiKey,
  hashApiKey,
  isAcceptableApiKey,
  toBase62,
} from './api-key-tokens.js';

describe('api key tokens', () => {
  it('generates distinct 43-character base62 keys', () => {
    const keys = new Set(Array.from({ length: 50 }, generateApiKey));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(/^[0-9A-Za-z]{43}$/);
  });

  it('encodes base62 with padding', () => {
    expect(toBase62(new Uint8Array([0, 0]), 4)).toBe('0000');
    expect(toBase62(new Uint8Array([0, 61]), 2)).toBe('0z');
    expect(toBase62(new Uint8Array([0, 62]), 2)).toBe('10');
    expect(toBase62(new Uint8Array(32).fill(255), 43)).toHaveLength(43);
  });

  it('hashes with sha256 and exposes a short prefix', () => {
    expect(hashApiKey('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(apiKeyPrefix('abcdefghijkl')).toBe('abcdefgh');
  });

  it('accepts supervisor-made keys and refuses odd ones', () => {
    expect(isAcceptableApiKey('0123456789abcdef0123456789abcdef')).toBe(true);
    expect(isAcceptableApiKey('short')).toBe(false);
    expect(isAcceptableApiKey('has.dots.in.it.0123456789')).toBe(false);
  });
});
