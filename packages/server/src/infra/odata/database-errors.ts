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

// Maps a PostgreSQL error raised by a client's request to the API's answer. The SDK's upserts
// need 409 with "unique" in the body; references to rows the caller cannot see are 401.
export const mapDatabaseError = (error: unknown): unknown => {
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
      return badRequest(`Type mismatch in the request: ${error.message}`);
    case '54001':
      return badRequest('The request is too complex');
    default:
      if (error.code.startsWith('22')) return badRequest(`Invalid value: ${error.message}`);
      return error;
  }
};
