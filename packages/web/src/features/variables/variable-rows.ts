import type { ChangeKind, StagedChanges } from './staged-edits.js';
import type { VariableChange } from './variable-model.js';

// The rows of a variables table: what is loaded at this level (the fleet's own variables on
// fleet pages, the device's on device pages), what the level above gives (the fleet value a
// device inherits) and the edits staged on top.

// One row per (service, name); service 0 is "All services", and every configuration variable.
export const rowKey = (serviceId: number, name: string): string => `${serviceId}:${name}`;

export type Inherited = { name: string; serviceId: number; value: string };
export type Own = { id: number; name: string; serviceId: number; value: string };

export type VariableRow = {
  key: string;
  name: string;
  serviceId: number;
  // The value the level above sets (a device inherits it unless it overrides it).
  inherited: string | null;
  // The variable at this level as loaded, if there is one.
  own: Own | null;
  // The value at this level once the staged edit is applied (the loaded one for a deletion,
  // shown struck through); null when there is none.
  value: string | null;
  staged: ChangeKind | undefined;
};

const stagedValue = (change: VariableChange): string | null =>
  change.action === 'delete' ? null : change.value;

export const variableRows = (
  inherited: readonly Inherited[],
  own: readonly Own[],
  changes: StagedChanges<VariableChange>,
): VariableRow[] => {
  const rows = new Map<string, VariableRow>();
  const row = (name: string, serviceId: number): VariableRow => {
    const key = rowKey(serviceId, name);
    const existing = rows.get(key);
    if (existing) return existing;
    const created: VariableRow = {
      key,
      name,
      serviceId,
      inherited: null,
      own: null,
      value: null,
      staged: undefined,
    };
    rows.set(key, created);
    return created;
  };
  for (const item of inherited) row(item.name, item.serviceId).inherited = item.value;
  for (const item of own) {
    const target = row(item.name, item.serviceId);
    target.own = item;
    target.value = item.value;
  }
  for (const staged of changes) {
    const [serviceId = '0', ...rest] = staged.key.split(':');
    const target = row(rest.join(':'), Number(serviceId));
    target.staged = staged.kind;
    target.value = stagedValue(staged.change) ?? target.value;
  }
  return [...rows.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.serviceId - b.serviceId,
  );
};

// Whether the row has a value at this level (so a name is taken, a value can be edited).
export const hasOwnValue = (row: VariableRow): boolean => row.value !== null;

// The value that applies at this level: its own, else the inherited one.
export const effectiveValue = (row: VariableRow): string | null =>
  row.staged === 'deleted' ? row.inherited : (row.value ?? row.inherited);
