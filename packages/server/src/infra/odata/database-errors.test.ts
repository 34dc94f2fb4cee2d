import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { mapDatabaseError } from './database-errors.js';

const uniqueViolation = (detail: string) => ({
  code: '23505',
  detail,
  message: 'duplicate key value violates unique constraint',
});

describe('mapDatabaseError', () => {
  it('answers 409 "<columns> must be unique." naming the key columns', () => {
    const mapped = mapDatabaseError(
      uniqueViolation('Key (application, name)=(1, A) already exists.'),
    );
    expect(mapped).toBeInstanceOf(ApiError);
    expect(mapped).toMatchObject({
      code: 'conflict',
      message: '"application, name" must be unique.',
    });
  });

  it('names the column of a case-insensitive unique index without lower()', () => {
    expect(
      mapDatabaseError(uniqueViolation('Key (lower(username))=(alice) already exists.')),
    ).toMatchObject({ code: 'conflict', message: '"username" must be unique.' });
  });
});
