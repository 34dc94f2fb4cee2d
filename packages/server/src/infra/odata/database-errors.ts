import { QueryCancelledError } from '../db/cancellable-query.js';
import { ApiError, badRequest, conflict, forbidden } from '../errors/api-error.js';

type PgError = {
  code: string;
  detail?: string;
  message: string;
  column?: string;
  constraint?: string;
};

const isPgError = (error: unknown): error is PgError =>
  typeof error === 'object' &&
  error !== null &&
  'code' in error &&
  typeof error.code === 'string' &&
  /^[0-9A-Z]{5}$/.test(error.code);

// "Key (lower(username))=(bob) already exists.": the key's columns, without the lower() of the
// case-insensitive unique indexes.
const uniqueKeyOf = (detail: string): string | undefined =>
  /^Key \((.*?)\)=\(/.exec(detail)?.[1]?.replace(/lower\(([^()]*)\)/g, '$1');

// Data exceptions (class 22) a client's values can cause, in our words: PostgreSQL's own
// messages name its types and internals.
const dataExceptions: Record<string, string> = {
  '22003': 'A number in the request is out of range',
  '22012': 'The request divides by zero',
  '22001': 'A text value in the request is too long',
  '22007': 'A date in the request is not valid',
  '22008': 'A date in the request is out of range',
  '22021': 'Text in the request contains a character that cannot be stored (such as NUL)',
  '22P05': 'Text in the request contains a character that cannot be stored (such as NUL)',
  '22P02': 'A value in the request does not have the expected format',
  '2201B': 'A pattern in the request is not valid',
};

const cancelledMessage = (error: QueryCancelledError): string =>
  error.reason === 'timeout'
    ? `The request ran longer than the ${error.timeoutMs ?? '?'} ms limit per database statement; narrow it with $filter or $top, or expand less`
    : 'The client closed the connection before the answer was ready';

// Maps a PostgreSQL error raised by a client's request to the API's answer. The SDK's upserts
// need 409 with "unique" in the body; references to rows the caller cannot see are 401. Errors
// no input can cause (connection loss...) are returned unchanged and stay 5xx.
export const mapDatabaseError = (error: unknown): unknown => {
  if (error instanceof QueryCancelledError) return badRequest(cancelledMessage(error));
  if (error instanceof ApiError || !isPgError(error)) return error;
  const detail = error.detail ?? '';
  switch (error.code) {
    case '23505':
      return conflict(`"${uniqueKeyOf(detail) ?? error.constraint ?? 'value'}" must be unique.`);
    case '23503':
      return detail.includes('is still referenced')
        ? conflict(
            `Cannot delete: the row is still referenced (${error.constraint ?? 'foreign key'})`,
          )
        : forbidden('Unauthorized: a referenced row does not exist or is not accessible');
    case '23502':
      return badRequest(`'${error.column ?? 'a field'}' is required`);
    case '23514':
      return badRequest(`A value is not allowed (${error.constraint ?? 'check'})`);
    case '42883':
    case '42804':
    case '42P18':
      return badRequest('Type mismatch: the request combines values of incompatible types');
    case '54000':
    case '54001':
      return badRequest('The request is too complex');
    case '57014':
      // Cancelled by a server-side statement_timeout set by the database's administrator.
      return badRequest('The request ran longer than the database allows');
    default:
      if (error.code.startsWith('22')) {
        return badRequest(dataExceptions[error.code] ?? 'A value in the request is not valid');
      }
      return error;
  }
};
