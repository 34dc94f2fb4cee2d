import { textLengthLimits } from '@flotilla/shared/constants/limits';
import type { Field, Resource } from '../../model/model-types.js';
import type { SqlValue } from '../db/database.js';
import { badRequest, forbidden } from '../errors/api-error.js';

export type WriteMode = 'create' | 'update';

const describe = (value: unknown): string => (value === null ? 'null' : typeof value);

// Converts one JSON body value to what PostgreSQL stores for the field, or explains the problem.
export const coerceValue = (resource: Resource, field: Field, value: unknown): SqlValue => {
  const where = `'${field.name}' of '${resource.name}'`;
  if (value === null) {
    if (field.required) throw badRequest(`${where} cannot be null`);
    return null;
  }
  switch (field.type) {
    case 'integer':
    case 'bigint': {
      const number = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isSafeInteger(number)) {
        throw badRequest(`${where} must be an integer, got ${describe(value)}`);
      }
      if (field.type === 'integer' && Math.abs(number) > 2_147_483_647) {
        throw badRequest(`${where} is out of range`);
      }
      return number;
    }
    case 'real':
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw badRequest(`${where} must be a number, got ${describe(value)}`);
      }
      return value;
    case 'text':
      if (typeof value !== 'string')
        throw badRequest(`${where} must be a string, got ${describe(value)}`);
      if (value.includes('\u0000')) throw badRequest(`${where} must not contain NUL characters`);
      if (value.length > (field.maxLength ?? textLengthLimits.text)) {
        throw badRequest(
          `${where} is longer than ${field.maxLength ?? textLengthLimits.text} characters`,
        );
      }
      return value;
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 0 || value === 1) return value === 1;
      throw badRequest(`${where} must be a boolean, got ${describe(value)}`);
    case 'date': {
      const date =
        typeof value === 'string' || typeof value === 'number' ? new Date(value) : undefined;
      if (!date || Number.isNaN(date.getTime())) {
        throw badRequest(`${where} must be a date (ISO 8601 string or milliseconds)`);
      }
      return date.toISOString();
    }
    case 'json':
      return JSON.stringify(value);
  }
};

// Validates a POST/PATCH body against the model: unknown, read-only, computed or (on update)
// create-only fields are rejected with a message naming them. Synonyms write their column.
export const writableValues = (
  resource: Resource,
  body: unknown,
  mode: WriteMode,
): Map<string, { field: Field; value: SqlValue }> => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('The request body must be a JSON object');
  }
  const values = new Map<string, { field: Field; value: SqlValue }>();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined) continue;
    const field = resource.fields.get(name);
    if (!field || field.hidden) throw badRequest(`Unknown field '${name}' on '${resource.name}'`);
    if (field.readOnly || field.computed) {
      throw badRequest(`'${name}' of '${resource.name}' cannot be written`);
    }
    if (mode === 'update' && field.createOnly) {
      throw badRequest(`'${name}' of '${resource.name}' can only be set on creation`);
    }
    if (values.has(field.column)) throw badRequest(`'${name}' is given twice`);
    values.set(field.column, { field, value: coerceValue(resource, field, value) });
  }
  return values;
};

// Refuses (401, nothing written) a body naming a field outside `allowed` (undefined: no limit).
export const assertFieldsAllowed = (
  resource: Resource,
  values: ReadonlyMap<string, { field: Field }>,
  allowed: readonly string[] | undefined,
): void => {
  if (allowed === undefined) return;
  const refused = [...values.values()]
    .map(({ field }) => field)
    .filter((field) => !allowed.includes(field.column))
    .map((field) => `'${field.name}'`);
  if (refused.length > 0) {
    throw forbidden(`This key may not write ${refused.join(', ')} of '${resource.name}'`);
  }
};
