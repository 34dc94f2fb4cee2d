import AddIcon from '@mui/icons-material/Add';
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
import type { DeviceDetail } from '../../device/device-rows.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { ConfigTable, customRows } from './ConfigTable.js';
import { DeviceSection } from '../../device/DeviceSection.js';
import { LoadState } from '../../ui/LoadState.js';
import { DeleteAction, EditAction } from '../../ui/RowActions.js';
import { StagedChangesBar } from './StagedChangesBar.js';
import { UnsavedChangesGuard } from './UnsavedChangesGuard.js';
import { useConfigVars } from './useConfigVars.js';
import { useStagedEdits } from './useStagedEdits.js';
import {
  allServices,
  deviceVariablesKey,
  fetchDeviceVariables,
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
  { kind: 'edit'; row: VariableRow; property: ConfigVarProperty | undefined } | { kind: 'add' };

const resource = 'device_config_variable';

// The device's configuration: each setting of the device type's schema with the fleet value it
// inherits and its own override, then the configuration variables outside the schema (the
// device configuration table: the device's own, and the fleet's custom ones it inherits).
const DeviceConfig = ({ device }: { device: DeviceDetail }) => {
  const fleetId = device.belongs_to__application[0]?.id ?? 0;
  const client = useClient();
  const queryClient = useQueryClient();
  const access = useFleetRole(fleetId);
  const fleetConfig = useQuery({
    queryKey: [...fleetVariablesKey(fleetId), 'config'],
    queryFn: () => fetchFleetConfig(client, fleetId),
    ...polling(),
  });
  const deviceVariables = useQuery({
    queryKey: deviceVariablesKey(device.id),
    queryFn: () => fetchDeviceVariables(client, device.id),
    ...polling(),
  });
  const vars = useConfigVars(device.is_of__device_type[0]?.slug ?? '');
  const edits = useStagedEdits<VariableChange>({
    write: (staged) => writeVariable(client, staged.change),
    reload: () => queryClient.invalidateQueries({ queryKey: variablesKey }),
  });
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const { stageValue, stageDelete } = variableStaging(edits, {
    resourceOf: () => resource,
    ownerOf: () => ({ resource, device: device.id }),
  });
  const rows = useMemo(
    () =>
      variableRows(
        (fleetConfig.data ?? []).map((row) => ({ ...row, serviceId: allServices })),
        (deviceVariables.data?.config ?? []).map((row) => ({ ...row, serviceId: allServices })),
        edits.changes,
      ),
    [fleetConfig.data, deviceVariables.data, edits.changes],
  );
  const byName = useMemo(() => new Map(rows.map((row) => [row.name, row])), [rows]);
  const schema = vars.data?.configVarSchema;
  const denied = (action: 'create' | 'update' | 'delete') => access.denied(resource, action);
  const deniedFor = (row: VariableRow) => denied(row.own ? 'update' : 'create');
  const readOnly = access.isPending === false && !access.can(resource, 'create');
  const removeAction = (row: VariableRow) => (
    <DeleteAction
      name={row.name}
      title={row.inherited === null ? 'Remove (back to the default)' : 'Remove the override'}
      denied={row.own ? denied('delete') : null}
      onClick={() => stageDelete(row)}
    />
  );

  return (
    <Stack spacing={2}>
      <Typography variant="h2">Configuration</Typography>
      <Typography color="text.secondary">
        The device uses its fleet&apos;s configuration unless it sets its own value.
      </Typography>
      {readOnly ? (
        <Alert severity="info">
          You can see the configuration of this device but not change it.
        </Alert>
      ) : null}
      <LoadState queries={[fleetConfig, deviceVariables, vars]} what="configuration" />
      {fleetConfig.isSuccess && deviceVariables.isSuccess && schema && vars.data ? (
        <>
          <ConfigTable
            schema={schema}
            rows={byName}
            inheritedLabel="Fleet value"
            denied={deniedFor}
            onStage={stageValue}
            onEdit={(row, property) => setDialog({ kind: 'edit', row, property })}
            onUndo={(row) => edits.undo(row.key)}
            remove={removeAction}
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
            label="Device configuration"
            rows={customRows(rows, schema)}
            inheritedLabel="Fleet value"
            valueLabel="Device value"
            empty="No custom configuration variables"
            onUndo={(row) => edits.undo(row.key)}
            actions={(row) =>
              row.staged === 'deleted' || readOnly ? null : (
                <>
                  <EditAction
                    name={row.name}
                    denied={deniedFor(row)}
                    onClick={() => setDialog({ kind: 'edit', row, property: undefined })}
                  />
                  {row.value !== null ? removeAction(row) : null}
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
          open={dialog !== null}
          title={dialog?.kind === 'edit' ? `Edit ${dialog.row.name}` : 'Add custom variable'}
          submitLabel={dialog?.kind === 'edit' ? 'Stage change' : 'Add'}
          fixedName={dialog?.kind === 'edit' ? dialog.row.name : undefined}
          initialValue={
            dialog?.kind === 'edit'
              ? (dialog.row.value ?? dialog.row.inherited ?? String(dialog.property?.default ?? ''))
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
                owner: { resource, device: device.id },
                name: form.name,
                value,
              });
            setDialog(null);
          }}
        />
      ) : null}
    </Stack>
  );
};

// /devices/:uuid/config
export const DeviceConfigPage = () => (
  <DeviceSection title="Configuration">
    {(device) => <DeviceConfig device={device} />}
  </DeviceSection>
);
