import { describe, expect, it } from 'vitest';
import {
  asUnavailable,
  DatabaseUnavailableError,
  isDatabaseUnavailable,
} from './connection-errors.js';

const withCode = (message: string, code: string): Error =>
  Object.assign(new Error(message), { code });

describe('database connection errors', () => {
  it('recognises a server that cannot be reached or went away', () => {
    const unavailable = [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('terminating connection due to crash of another server process', '57P02'),
      withCode('the database system is starting up', '57P03'),
      withCode('cannot execute INSERT in a read-only transaction', '25006'),
      withCode('connection failure', '08006'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('Cannot use a pool after calling end on the pool'),
      new DatabaseUnavailableError(new Error('anything')),
    ];
    for (const error of unavailable) expect(isDatabaseUnavailable(error), error.message).toBe(true);
  });

  it('leaves statement errors alone', () => {
    const statementErrors = [
      withCode('duplicate key value violates unique constraint', '23505'),
      withCode('syntax error at or near "SELEC"', '42601'),
      withCode('password authentication failed for user "x"', '28P01'),
      new Error('something else'),
      'not an error',
    ];
    for (const error of statementErrors) {
      expect(isDatabaseUnavailable(error)).toBe(false);
      expect(asUnavailable(error)).toBe(error);
    }
  });

  it('wraps a connection failure once, keeping it as the cause', () => {
    const refused = withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED');
    const wrapped = asUnavailable(refused);
    expect(wrapped).toBeInstanceOf(DatabaseUnavailableError);
    expect(wrapped instanceof Error && wrapped.cause).toBe(refused);
    expect(asUnavailable(wrapped)).toBe(wrapped);
  });
});
