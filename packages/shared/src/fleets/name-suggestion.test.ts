import { describe, expect, it } from 'vitest';
import { fleetNameClash, fleetNameProblem } from './fleet-name.js';
import { maxSuggestionAttempts, suggestName } from './name-suggestion.js';

describe('fleet name suggestion', () => {
  it('suggests a valid two-word name that avoids existing names', () => {
    const name = suggestName(['Misty-River']);
    expect(name).toMatch(/^[a-z]+-[a-z]+$/);
    expect(name && fleetNameProblem(name)).toBeUndefined();
    // With a fixed random source every try gives the first words; that name is taken.
    expect(suggestName(['amber-anchor'], () => 0)).toBeUndefined();
  });

  it('gives up after 500 collisions', () => {
    let calls = 0;
    const result = suggestName(['amber-anchor'], () => {
      calls++;
      return 0;
    });
    expect(result).toBeUndefined();
    expect(calls).toBe(maxSuggestionAttempts * 2);
  });
});

describe('fleet name validation', () => {
  it('gives the messages of the specification', () => {
    expect(fleetNameProblem('')).toBe('name required');
    expect(fleetNameProblem('abc')).toBe('at least 4 characters');
    expect(fleetNameProblem('a'.repeat(101))).toBe('maximum 100 characters');
    expect(fleetNameProblem('-abcd')).toMatch(/^Must start with a letter or digit/);
    expect(fleetNameProblem('my fleet')).toMatch(/only letters, digits/);
    expect(fleetNameProblem('my_fleet-2')).toBeUndefined();
    expect(fleetNameClash('Greenhouse', ['greenhouse'], 'fleet')).toBe(
      'This name is already used by another fleet in the organization',
    );
    expect(fleetNameClash('Greenhouse', ['other'], 'block')).toBeUndefined();
  });
});
