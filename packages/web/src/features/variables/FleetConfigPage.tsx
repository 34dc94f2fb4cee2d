import AddIcon from '@mui/icons-material/Add';
import DevicesIcon from '@mui/icons-material/DevicesOther';
import type { ConfigVarProperty } from '@flotilla/shared/variables/config-vars';
import {
  configNameProblem,
  configValueProblem,
  duplicateProblem,
} from '@flotilla/shared/variables/variable-form-rules';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import { useFleetContext } from '../../fleet/useFleetContext.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { ConfigTable, customRows } from './ConfigTable.js';
import { LoadState } from '../../ui/LoadState.js';
import { OverridesDialog } from './OverridesDialog.js';
import { DeleteAction, EditAction, RowAction } from '../../ui/RowActions.js';
import { StagedChangesBar } from './StagedChangesBar.js';
import { UnsavedChangesGuard } from './UnsavedChangesGuard.js';
import { useConfigVars } from './useConfigVars.js';
import { useStagedEdits } from './useStagedEdits.js';
import {
  allServices,
  fetchFleetConfig,
  fleetVariablesKey,
  variablesKey,
} from './variable-queries.js';
import { hasOwnValue, rowKey, type VariableRow, variableRows } from './variable-rows.js';
import { variableStaging } from './variable-staging.js';
import { type VariableChange, writeVariable } from './variable-writes.js';
import { VariableDialog } from './VariableDialog.js';
import { VariablesTable } from './VariablesTable.js';

type Dialog =
  | { kind: 'edit'; row: VariableRow; property: ConfigVarProperty | undefined }
  | { kind: 'add' }
  | { kind: 'overrides'; row: VariableRow };

const resource = 'application_config_variable';

// /fleets/:id/config: the configuration table of the fleet's default device type and the custom
// configuration table, edited through staged changes; needs resin.application_config_variable.all
// to change anything (seed 001 section 6).
export const FleetConfigPage = () => {
  const { application } = useFleetContext();
  const fleetId = application.id;
  const client = useClient();
  const queryClient = useQueryClient();
  const access = useFleetRole(fleetId);
  const config = useQuery({
    queryKey: [...fleetVariablesKey(fleetId), 'config'],
    queryFn: () => fetchFleetConfig(client, fleetId),
    ...polling(),
  });
  const vars = useConfigVars(application.is_for__device_type[0]?.slug ?? '');
  const edits = useStagedEdits<VariableChange>({
    write: (staged) => writeVariable(client, staged.change),
    reload: () => queryClient.invalidateQueries({ queryKey: variablesKey }),
  });
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const { stageValue, stageDelete } = variableStaging(edits, {
    resourceOf: () => resource,
    ownerOf: () => ({ resource, application: fleetId }),
  });

  const rows = useMemo(
    () =>
      variableRows(
        [],
        (config.data ?? []).map((row) => ({ ...row, serviceId: allServices })),
        edits.changes,
      ),
    [config.data, edits.changes],
  );
  const byName = useMemo(() => new Map(rows.map((row) => [row.name, row])), [rows]);
  const schema = vars.data?.configVarSchema;
  const denied = (action: 'create' | 'update' | 'delete') => access.denied(resource, action);
  const deniedFor = (row: VariableRow) => denied(row.own ? 'update' : 'create');
  const readOnly = access.isPending === false && !access.can(resource, 'create');
  const overridesAction = (row: VariableRow) =>
    row.own && row.staged !== 'added' ? (
      <RowAction
        label={`Overrides of ${row.name}`}
        title="Devices overriding this setting"
        icon={<DevicesIcon fontSize="small" />}
        denied={null}
        onClick={() => setDialog({ kind: 'overrides', row })}
      />
    ) : null;

  return (
    <Stack spacing={2}>
      <Typography variant="h2">Configuration</Typography>
      <Typography color="text.secondary">
        Settings of the device agent and the host OS of every device of the fleet
        {application.is_for__device_type[0] ? ` (${application.is_for__device_type[0].name})` : ''}.
        A device can override each of them on its own configuration page.
      </Typography>
      {readOnly ? (
        <Alert severity="info">
          You can see the configuration of this fleet but not change it.
        </Alert>
      ) : null}
      <LoadState queries={[config, vars]} what="configuration" />
      {config.isSuccess && schema && vars.data ? (
        <>
          <ConfigTable
            schema={schema}
            rows={byName}
            denied={deniedFor}
            onStage={stageValue}
            onEdit={(row, property) => setDialog({ kind: 'edit', row, property })}
            onUndo={(row) => edits.undo(row.key)}
            extraActions={overridesAction}
            remove={(row) => (
              <DeleteAction
                name={row.name}
                title="Remove (back to the default)"
                denied={row.own ? denied('delete') : null}
                onClick={() => stageDelete(row)}
              />
            )}
          />
          <Stack
            direction="row"
            sx={{ alignItems: 'center', justifyContent: 'space-between', pt: 2 }}
          >
            <Typography variant="h3">Custom configuration</Typography>
            {readOnly ? null : (
              <Button
                variant="outlined"
                startIcon={<AddIcon />}
                disabled={denied('create') !== null}
                onClick={() => setDialog({ kind: 'add' })}
              >
                Add custom variable
              </Button>
            )}
          </Stack>
          <VariablesTable
            label="Custom configuration"
            rows={customRows(rows, schema)}
            empty="No custom configuration variables"
            onUndo={(row) => edits.undo(row.key)}
            actions={(row) =>
              row.staged === 'deleted' ? null : (
                <>
                  {overridesAction(row)}
                  {readOnly ? null : (
                    <>
                      <EditAction
                        name={row.name}
                        denied={deniedFor(row)}
                        onClick={() => setDialog({ kind: 'edit', row, property: undefined })}
                      />
                      <DeleteAction
                        name={row.name}
                        denied={row.own ? denied('delete') : null}
                        onClick={() => stageDelete(row)}
                      />
                    </>
                  )}
                </>
              )
            }
          />
        </>
      ) : null}
      <StagedChangesBar edits={edits} />
      <UnsavedChangesGuard when={edits.dirty} />
      {vars.data ? (
        <VariableDialog
          open={dialog?.kind === 'edit' || dialog?.kind === 'add'}
          title={dialog?.kind === 'edit' ? `Edit ${dialog.row.name}` : 'Add custom variable'}
          submitLabel={dialog?.kind === 'edit' ? 'Stage change' : 'Add'}
          fixedName={dialog?.kind === 'edit' ? dialog.row.name : undefined}
          initialValue={
            dialog?.kind === 'edit'
              ? (dialog.row.value ?? String(dialog.property?.default ?? ''))
              : ''
          }
          multiline={dialog?.kind !== 'edit' || dialog.property === undefined}
          nameProblem={(name) =>
            configNameProblem(name, vars.data) ??
            duplicateProblem(
              name,
              (candidate) =>
                candidate in vars.data.configVarSchema.properties ||
                rows.some((row) => row.name === candidate && hasOwnValue(row)),
            )
          }
          valueProblem={(value) =>
            configValueProblem(value, dialog?.kind === 'edit' ? dialog.property : undefined)
          }
          onClose={() => setDialog(null)}
          onSubmit={(form) => {
            const value =
              dialog?.kind === 'edit' && dialog.property ? form.value.trim() : form.value;
            if (dialog?.kind === 'edit') stageValue(dialog.row, value);
            else
              edits.stage(rowKey(allServices, form.name), 'added', {
                action: 'create',
                owner: { resource, application: fleetId },
                name: form.name,
                value,
              });
            setDialog(null);
          }}
        />
      ) : null}
      {dialog?.kind === 'overrides' ? (
        <OverridesDialog
          fleetId={fleetId}
          target={{ kind: 'config', name: dialog.row.name }}
          fleetValue={dialog.row.value}
          deleteDenied={(overrideResource) => access.denied(overrideResource, 'delete')}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </Stack>
  );
};
