import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../errors/api-error.js';
import { parseBody } from './validate.js';

const schema = z.object({
  name: z.string().min(1),
  nested: z.object({ n: z.number() }).optional(),
});

const errorOf = (body: unknown): ApiError => {
  try {
    parseBody(schema, body);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a failure');
};

describe('parseBody', () => {
  it('returns the typed value', () => {
    expect(parseBody(schema, { name: 'x' })).toEqual({ name: 'x' });
  });

  it('answers bad_request naming the field', () => {
    const error = errorOf({ name: 3 });
    expect(error.code).toBe('bad_request');
    expect(error.message).toMatch(/^name: /);
    expect(errorOf({ name: 'x', nested: { n: 'a' } }).message).toMatch(/^nested\.n: /);
  });

  it('treats a missing body as an empty object', () => {
    expect(errorOf(undefined).message).toMatch(/^name: /);
    expect(errorOf(null).message).toMatch(/^name: /);
  });
});
