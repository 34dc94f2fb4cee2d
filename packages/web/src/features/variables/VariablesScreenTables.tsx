import {
  type AgentProfile,
  honouredByAny,
  honoursConfig,
} from '@flotilla/shared/device-protocol/agent-profile-rules';
import DevicesIcon from '@mui/icons-material/DevicesOther';
import type { ConfigVarSchema } from '@flotilla/shared/variables/config-vars';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { DeleteAction, EditAction, RowAction } from '../../ui/RowActions.js';
import { ConfigTable, customRows } from './ConfigTable.js';
import { filterByService, type ServiceFilterValue } from './ServiceFilter.js';
import type { StagedEdits } from './useStagedEdits.js';
import type { VariableChange } from './variable-model.js';
import type { VariableRow } from './variable-rows.js';
import type { VariableStaging } from './variable-staging.js';
import type { VariablesDialog } from './VariableEditDialog.js';
import type { VariableAction, VariablesScreenSpec } from './variables-screens.js';
import { rowLabel, VariablesTable } from './VariablesTable.js';

export type VariablesScreenTablesProps = {
  spec: VariablesScreenSpec;
  rows: VariableRow[];
  schema: ConfigVarSchema;
  filter: ServiceFilterValue;
  serviceName: ((serviceId: number) => string) | undefined;
  readOnly: boolean;
  denied: (serviceId: number, action: VariableAction) => string | null;
  edits: StagedEdits<VariableChange>;
  staging: VariableStaging;
  onDialog: (dialog: VariablesDialog) => void;
  addButton: ReactNode;
  agentProfile: AgentProfile | null;
  fleetAgentProfiles: readonly (AgentProfile | null)[] | null;
};

// The tables of a variables screen: the environment variables (filtered by service), or the
// schema's settings with their value controls and then the custom configuration.
export const VariablesScreenTables = ({
  spec,
  rows,
  schema,
  filter,
  serviceName,
  readOnly,
  denied,
  edits,
  staging,
  onDialog,
  addButton,
  agentProfile,
  fleetAgentProfiles,
}: VariablesScreenTablesProps) => {
  const labelOf = rowLabel(serviceName);
  const inheritedLabel = spec.inheritsFleet ? 'Fleet value' : undefined;
  const deniedFor = (row: VariableRow) => denied(row.serviceId, row.own ? 'update' : 'create');
  const deleteAction = (row: VariableRow, title: string) => (
    <DeleteAction
      name={labelOf(row)}
      title={row.inherited === null ? title : 'Remove the override'}
      denied={row.own ? denied(row.serviceId, 'delete') : null}
      onClick={() => staging.stageDelete(row)}
    />
  );
  const overridesAction = (row: VariableRow) =>
    spec.overrides && row.own && row.staged !== 'added' ? (
      <RowAction
        label={`Overrides of ${labelOf(row)}`}
        title={spec.overridesTooltip}
        icon={<DevicesIcon fontSize="small" />}
        denied={null}
        onClick={() => onDialog({ kind: 'overrides', row })}
      />
    ) : null;
  const table = (
    <VariablesTable
      label={spec.tableLabel}
      rows={spec.configControls ? customRows(rows, schema) : filterByService(rows, filter)}
      serviceName={serviceName}
      inheritedLabel={inheritedLabel}
      valueLabel={spec.inheritsFleet ? 'Device value' : undefined}
      empty={spec.empty(filter !== 'any')}
      onUndo={(row) => edits.undo(row.key)}
      actions={(row) =>
        row.staged === 'deleted' ? null : (
          <>
            {overridesAction(row)}
            {readOnly ? null : (
              <>
                <EditAction
                  name={labelOf(row)}
                  denied={deniedFor(row)}
                  onClick={() => onDialog({ kind: 'edit', row, property: undefined })}
                />
                {row.value !== null ? deleteAction(row, spec.deleteTitle) : null}
              </>
            )}
          </>
        )
      }
    />
  );
  if (!spec.configControls) return table;
  return (
    <>
      <ConfigTable
        schema={schema}
        rows={new Map(rows.map((row) => [row.name, row]))}
        inheritedLabel={inheritedLabel}
        denied={deniedFor}
        onStage={staging.stageValue}
        onEdit={(row, property) => onDialog({ kind: 'edit', row, property })}
        onUndo={(row) => edits.undo(row.key)}
        extraActions={spec.overrides ? overridesAction : undefined}
        remove={(row) => deleteAction(row, 'Remove (back to the default)')}
        unused={(name) =>
          fleetAgentProfiles === null
            ? !honoursConfig(agentProfile, name)
            : !honouredByAny(fleetAgentProfiles, name)
        }
        unusedBy={fleetAgentProfiles === null ? 'device' : 'fleet'}
      />
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', pt: 2 }}>
        <Typography variant="h3">Custom configuration</Typography>
        {addButton}
      </Stack>
      {table}
    </>
  );
};
