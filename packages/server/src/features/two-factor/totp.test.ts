import { describe, expect, it } from 'vitest';
import { acceptedTotpStep, newTotpSecret, totpCodeAt, totpStepAt } from './totp.js';

// RFC 6238 appendix B's SHA-1 seed, "12345678901234567890", in base32.
const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP', () => {
  it('computes the RFC 6238 test vectors (last 6 digits)', () => {
    expect(totpCodeAt(rfcSecret, new Date(59_000))).toBe('287082');
    expect(totpCodeAt(rfcSecret, new Date(1_111_111_109_000))).toBe('081804');
    expect(totpCodeAt(rfcSecret, new Date(2_000_000_000_000))).toBe('279037');
  });

  it('makes a new 160-bit base32 secret each time', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
  });

  it('accepts the current code and those of the neighbouring steps only', () => {
    const now = new Date('2026-11-24T10:00:15Z');
    const step = totpStepAt(now);
    const at = (offsetSteps: number) => new Date(now.getTime() + offsetSteps * 30_000);
    expect(acceptedTotpStep(rfcSecret, totpCodeAt(rfcSecret, now), now, null)).toBe(step);
    expect(acceptedTotpStep(rfcSecret, totpCodeAt(rfcSecret, at(-1)), now, null)).toBe(step - 1);
    expect(acceptedTotpStep(rfcSecret, totpCodeAt(rfcSecret, at(1)), now, null)).toBe(step + 1);
    expect(acceptedTotpStep(rfcSecret, totpCodeAt(rfcSecret, at(-2)), now, null)).toBeNull();
    expect(acceptedTotpStep(rfcSecret, totpCodeAt(rfcSecret, at(2)), now, null)).toBeNull();
  });

  it('refuses a code of a step already used, and anything that is not 6 digits', () => {
    const now = new Date('2026-11-24T10:00:15Z');
    const code = totpCodeAt(rfcSecret, now);
    const step = totpStepAt(now);
    expect(acceptedTotpStep(rfcSecret, code, now, step)).toBeNull();
    expect(acceptedTotpStep(rfcSecret, code, now, step - 1)).toBe(step);
    expect(acceptedTotpStep(rfcSecret, `${code}0`, now, null)).toBeNull();
    expect(acceptedTotpStep(rfcSecret, code.slice(1), now, null)).toBeNull();
    expect(acceptedTotpStep(rfcSecret, 'abcdef', now, null)).toBeNull();
  });
});
