import { auditSecretMask } from '@flotilla/shared/audit-log/audit-entry';
import type { RowChange } from '../../infra/odata/hooks.js';
import type { Resource } from '../../model/model-types.js';

// Columns whose values never reach the log, by name: credentials and their hashes.
const secretColumn = /password|secret|token|_hash$|^key$|private/i;

// Columns every write touches on its own; recording them says nothing.
const bookkeeping = new Set(['id', 'created_at', 'modified_at']);

// A value is masked when its column is a secret by name, hidden by the model (never served), not
// in the model at all (server-kept columns), or a variable's value: variables carry no "secret"
// marker and hold credentials often enough that their values are never logged (the change and
// the variable's name are).
export const isSecretColumn = (resource: Resource, column: string): boolean => {
  const field = resource.fields.get(column);
  return (
    field === undefined ||
    field.hidden === true ||
    secretColumn.test(column) ||
    (column === 'value' && resource.name.endsWith('_variable'))
  );
};

const shown = (resource: Resource, column: string, value: unknown): unknown =>
  value === null || value === undefined || !isSecretColumn(resource, column)
    ? value
    : auditSecretMask;

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export type FieldChanges = Record<string, { old?: unknown; new?: unknown }>;

// What a row's change records: on create the values set (nulls left out), on update each column
// the request set whose value differs (old and new), on delete the values the row held.
export const fieldChanges = (
  resource: Resource,
  operation: 'create' | 'update' | 'delete',
  change: RowChange,
  written: readonly string[],
): FieldChanges => {
  const changes: FieldChanges = {};
  const before = change.before ?? {};
  const after = change.after ?? {};
  const columns =
    operation === 'update' ? written : Object.keys(operation === 'create' ? after : before);
  for (const column of columns) {
    if (bookkeeping.has(column)) continue;
    const oldValue = before[column] ?? null;
    const newValue = after[column] ?? null;
    if (operation === 'update') {
      if (same(oldValue, newValue)) continue;
      changes[column] = {
        old: shown(resource, column, oldValue),
        new: shown(resource, column, newValue),
      };
    } else if (operation === 'create' && newValue !== null) {
      changes[column] = { new: shown(resource, column, newValue) };
    } else if (operation === 'delete' && oldValue !== null) {
      changes[column] = { old: shown(resource, column, oldValue) };
    }
  }
  return changes;
};
