import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  hashRecoveryCode,
  newRecoveryCode,
  recoveryCodeAlphabet,
  recoveryCodeMatches,
} from './recovery-codes.js';

describe('recovery code generation', () => {
  it('draws each letter as a uniform index into the alphabet, never a byte modulo its length', () => {
    const asked: number[] = [];
    const indices = [0, 1, 2, 3, 4, 26, 27, 28, 29, 30];
    const code = newRecoveryCode((max) => {
      asked.push(max);
      return indices[asked.length - 1] ?? -1;
    });
    expect(recoveryCodeAlphabet).toHaveLength(31);
    expect(asked).toEqual(Array.from({ length: 10 }, () => recoveryCodeAlphabet.length));
    expect(code).toBe('abcde-56789');
  });

  it('draws from the alphabet only by default', () => {
    for (let round = 0; round < 50; round += 1) {
      expect(newRecoveryCode()).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
    }
  });
});

describe('recovery code hashes', () => {
  it('differ for equal codes (each has its own salt), and each matches its code only', async () => {
    const [mine, theirs] = await Promise.all([
      hashRecoveryCode('k3m9xq7v2p'),
      hashRecoveryCode('k3m9xq7v2p'),
    ]);
    expect(mine).not.toBe(theirs);
    expect(mine).toMatch(/^scrypt\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(mine).not.toContain(createHash('sha256').update('k3m9xq7v2p').digest('hex'));
    expect(await recoveryCodeMatches('k3m9xq7v2p', mine)).toBe(true);
    expect(await recoveryCodeMatches('k3m9xq7v2p', theirs)).toBe(true);
    expect(await recoveryCodeMatches('k3m9xq7v2q', mine)).toBe(false);
  });

  it('still match codes stored before salting (a bare SHA-256)', async () => {
    const legacy = createHash('sha256').update('k3m9xq7v2p').digest('hex');
    expect(await recoveryCodeMatches('k3m9xq7v2p', legacy)).toBe(true);
    expect(await recoveryCodeMatches('k3m9xq7v2q', legacy)).toBe(false);
  });

  it.each(['', 'scrypt$', 'scrypt$x$AAAA$AAAA', 'scrypt$4096$AAAA$AAAA', 'bcrypt$1$2$3', 'ab'])(
    'match nothing against the malformed hash %j',
    async (stored) => {
      expect(await recoveryCodeMatches('k3m9xq7v2p', stored)).toBe(false);
    },
  );
});
