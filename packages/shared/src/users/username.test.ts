import { describe, expect, it } from 'vitest';
import { usernameProblem, usernameRuleText } from './username.js';

describe('usernameProblem', () => {
  it('accepts 3 to 30 ASCII letters, digits and underscores', () => {
    for (const name of ['bob', 'Bob_42', 'a'.repeat(30), '___']) {
      expect(usernameProblem(name), name).toBeUndefined();
    }
  });

  it('refuses anything else with one rule text', () => {
    for (const name of ['no', 'a'.repeat(31), 'no spaces', 'dot.ted', 'at@sign', 'émile', '']) {
      expect(usernameProblem(name), name).toBe(usernameRuleText);
    }
  });
});
