import { describe, expect, it } from 'vitest';
import { usernameBaseFromEmail } from './create-user.js';

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
});
