import { describe, expect, it } from 'vitest';
import { isAccountType, profileProblems } from './profile.js';

describe('profile rules', () => {
  it('first name, last name and company are required, and bounded', () => {
    expect(
      profileProblems({ first_name: 'Ada', last_name: 'Lovelace', company: 'Engines' }),
    ).toEqual({});
    expect(profileProblems({ first_name: ' ', last_name: '', company: 'x'.repeat(256) })).toEqual({
      first_name: 'First name is required',
      last_name: 'Last name is required',
      company: 'Company must be at most 255 characters',
    });
  });

  it('knows the account types', () => {
    expect(isAccountType('personal')).toBe(true);
    expect(isAccountType('professional')).toBe(true);
    expect(isAccountType('business')).toBe(false);
    expect(isAccountType(null)).toBe(false);
  });
});
