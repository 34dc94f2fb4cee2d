import { describe, expect, it } from 'vitest';
import { textLengthLimits } from './limits.js';
import { textLengthProblem } from './text-length.js';

describe('textLengthProblem', () => {
  it('accepts the limit and refuses one character more, saying how long it is', () => {
    expect(textLengthProblem('Name', 'x'.repeat(textLengthLimits.name))).toBeUndefined();
    expect(textLengthProblem('Name', 'x'.repeat(300))).toBe(
      'Name must be at most 255 characters (it has 300)',
    );
    expect(textLengthProblem('Value', 'x'.repeat(100_001), 'text')).toBe(
      'Value must be at most 100,000 characters (it has 100,001)',
    );
  });
});
