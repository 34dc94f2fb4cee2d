import { describe, expect, it } from 'vitest';
import { emailProblem, passwordProblem } from './credentials.js';

describe('sign-up validation', () => {
  it('requires a valid e-mail address', () => {
    expect(emailProblem('')).toBe('E-mail is required');
    expect(emailProblem('nope')).toBe('Enter a valid e-mail address');
    expect(emailProblem('a@b')).toBe('Enter a valid e-mail address');
    expect(emailProblem('ada@example.com')).toBeUndefined();
  });

  it('requires a password of 8 to 64 characters', () => {
    expect(passwordProblem('')).toBe('Password is required');
    expect(passwordProblem('1234567')).toBe('Password must be at least 8 characters');
    expect(passwordProblem('x'.repeat(65))).toBe('Password must be at most 64 characters');
    expect(passwordProblem('12345678')).toBeUndefined();
    expect(passwordProblem('x'.repeat(64))).toBeUndefined();
  });
});
