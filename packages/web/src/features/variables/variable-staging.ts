import type { VariableRow } from './variable-rows.js';
import type { StagedEdits } from './useStagedEdits.js';
import type { VariableChange, VariableOwner, VariableResource } from './variable-model.js';

// Where a table's variables live, per service (service 0: "All services").
export type VariablePlace = {
  resourceOf: (serviceId: number) => VariableResource;
  ownerOf: (serviceId: number) => VariableOwner;
};

// Staging a value or a deletion on a row of a table: an update of the loaded variable, or an
// addition when this level has none yet; deleting a staged addition just drops it.
export const variableStaging = (edits: StagedEdits<VariableChange>, place: VariablePlace) => ({
  stageValue: (row: VariableRow, value: string): void => {
    if (row.own && row.staged !== 'added') {
      edits.stage(row.key, 'updated', {
        action: 'update',
        resource: place.resourceOf(row.serviceId),
        id: row.own.id,
        name: row.name,
        value,
      });
      return;
    }
    edits.stage(row.key, 'added', {
      action: 'create',
      owner: place.ownerOf(row.serviceId),
      name: row.name,
      value,
    });
  },
  stageDelete: (row: VariableRow): void => {
    if (!row.own) {
      edits.undo(row.key);
      return;
    }
    edits.stage(row.key, 'deleted', {
      action: 'delete',
      resource: place.resourceOf(row.serviceId),
      id: row.own.id,
      name: row.name,
    });
  },
});

export type VariableStaging = ReturnType<typeof variableStaging>;
