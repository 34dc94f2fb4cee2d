import { describe, expect, it } from 'vitest';
import { usernameBaseFromEmail, usernamePattern } from './create-user.js';

describe('usernameBaseFromEmail', () => {
  it('keeps lowercase letters, digits and single underscores', () => {
    expect(usernameBaseFromEmail('Jane.Doe+fleet@example.com')).toBe('jane_doe_fleet');
    expect(usernameBaseFromEmail('..x..@example.com')).toBe('x');
    expect(usernameBaseFromEmail('admin@flotilla.local')).toBe('admin');
  });

  it('falls back to "user" and caps the length', () => {
    expect(usernameBaseFromEmail('+++@example.com')).toBe('user');
    expect(usernameBaseFromEmail(`${'a'.repeat(50)}@example.com`)).toHaveLength(30);
  });

  it('accepts chosen usernames of 3 to 30 word characters', () => {
    expect(usernamePattern.test('bob_42')).toBe(true);
    expect(usernamePattern.test('no')).toBe(false);
    expect(usernamePattern.test('no spaces')).toBe(false);
  });
});
