import { describe, expect, it } from 'vitest';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords.js';

const fast = { N: 1024, r: 8, p: 1 };

describe('passwords', () => {
  it('hashes with scrypt parameters and a random salt', async () => {
    const first = await hashPassword('correct horse');
    const second = await hashPassword('correct horse');
    expect(first).toMatch(/^scrypt\$N=16384,r=8,p=1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(first).not.toBe(second);
  });

  it('verifies the right password and rejects a wrong one', async () => {
    const stored = await hashPassword('correct horse', fast);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct hors', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('verifies with the parameters stored in the hash', async () => {
    const stored = await hashPassword('pw-123456', { N: 2048, r: 4, p: 2 });
    expect(stored).toContain('$N=2048,r=4,p=2$');
    expect(await verifyPassword('pw-123456', stored)).toBe(true);
  });

  it('never matches a missing or malformed hash', async () => {
    expect(await verifyPassword('x', null)).toBe(false);
    expect(await verifyPassword('x', undefined)).toBe(false);
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$N=1000,r=8,p=1$AAAA$AAAA')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$N=4194304,r=8,p=1$AAAA$AAAA')).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$N=1024,r=8,p=1$AAAA$AAAA')).toBe(false);
  });

  it('treats canonically equivalent unicode passwords alike', async () => {
    const stored = await hashPassword('caf\u00e9', fast);
    expect(await verifyPassword('cafe\u0301', stored)).toBe(true);
  });

  it('spends a verification on the dummy hash and always fails', async () => {
    expect(await verifyAgainstDummy('anything')).toBe(false);
  });
});
