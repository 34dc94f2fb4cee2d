import { describe, expect, it } from 'vitest';
import {
  apiKeyMessages,
  apiKeyNameProblem,
  expiryChoices,
  expiryOf,
  expiryText,
} from './api-key-rules.js';

const now = Date.parse('2030-01-01T00:00:00.000Z');

describe('the API key form', () => {
  it('needs a name', () => {
    expect(apiKeyNameProblem('  ')).toBe(apiKeyMessages.nameRequired);
    expect(apiKeyNameProblem('x'.repeat(256))).toBe(apiKeyMessages.nameTooLong);
    expect(apiKeyNameProblem('gateway')).toBeUndefined();
  });

  it('offers 1, 7, 30 and 90 days, a custom date and never', () => {
    expect(expiryChoices.map((choice) => choice.value)).toEqual([
      '1',
      '7',
      '30',
      '90',
      'custom',
      'never',
    ]);
    expect(expiryOf('7', '', now)).toEqual({ expiryDate: '2030-01-08T00:00:00.000Z' });
    expect(expiryOf('never', '', now)).toEqual({ expiryDate: null });
  });

  it('refuses a custom date that is missing or not in the future', () => {
    expect(expiryOf('custom', '', now)).toEqual({ problem: apiKeyMessages.customRequired });
    expect(expiryOf('custom', '2029-12-31T23:59:00.000Z', now)).toEqual({
      problem: apiKeyMessages.customInPast,
    });
    expect(expiryOf('custom', '2030-02-01T00:00:00.000Z', now)).toEqual({
      expiryDate: '2030-02-01T00:00:00.000Z',
    });
  });

  it('says when a key expired', () => {
    expect(expiryText(null, now)).toBe('Never');
    expect(expiryText('2029-01-01T00:00:00.000Z', now)).toMatch(/^Expired /);
    expect(expiryText('2031-01-01T00:00:00.000Z', now)).not.toMatch(/Expired/);
  });
});
