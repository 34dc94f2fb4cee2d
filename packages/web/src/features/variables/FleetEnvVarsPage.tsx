import AddIcon from '@mui/icons-material/Add';
import DevicesIcon from '@mui/icons-material/DevicesOther';
import {
  duplicateProblem,
  environmentNameProblem,
  valueProblem,
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
import { LoadState } from '../../ui/LoadState.js';
import { OverridesDialog } from './OverridesDialog.js';
import { DeleteAction, EditAction, RowAction } from '../../ui/RowActions.js';
import { serviceChoices, serviceNameOf } from './service-choices.js';
import { filterByService, ServiceFilter, type ServiceFilterValue } from './ServiceFilter.js';
import { StagedChangesBar } from './StagedChangesBar.js';
import { UnsavedChangesGuard } from './UnsavedChangesGuard.js';
import { useConfigVars } from './useConfigVars.js';
import { useStagedEdits } from './useStagedEdits.js';
import {
  allServices,
  fetchFleetEnvironment,
  fleetVariablesKey,
  variablesKey,
} from './variable-queries.js';
import { hasOwnValue, rowKey, type VariableRow, variableRows } from './variable-rows.js';
import { variableStaging } from './variable-staging.js';
import { type VariableChange, type VariableOwner, writeVariable } from './variable-writes.js';
import { VariableDialog } from './VariableDialog.js';
import { rowLabel, VariablesTable } from './VariablesTable.js';

type Dialog =
  { kind: 'add' } | { kind: 'edit'; row: VariableRow } | { kind: 'overrides'; row: VariableRow };

const resourceOf = (serviceId: number) =>
  serviceId === allServices ? 'application_environment_variable' : 'service_environment_variable';

// /fleets/:id/envvars: the fleet's variables and its services' variables in one table with a
// service column and filter, edited through staged changes (seed 001 section 2 and 4).
export const FleetEnvVarsPage = () => {
  const { application } = useFleetContext();
  const fleetId = application.id;
  const client = useClient();
  const queryClient = useQueryClient();
  const access = useFleetRole(fleetId);
  const releaseId = application.should_be_running__release[0]?.id ?? null;
  const environment = useQuery({
    queryKey: [...fleetVariablesKey(fleetId), 'environment', releaseId],
    queryFn: () => fetchFleetEnvironment(client, fleetId, releaseId),
    ...polling(),
  });
  const rules = useConfigVars(application.is_for__device_type[0]?.slug ?? '');
  const edits = useStagedEdits<VariableChange>({
    write: (staged) => writeVariable(client, staged.change),
    reload: () => queryClient.invalidateQueries({ queryKey: variablesKey }),
  });
  const [filter, setFilter] = useState<ServiceFilterValue>('any');
  const [dialog, setDialog] = useState<Dialog | null>(null);

  const services = useMemo(() => environment.data?.services ?? [], [environment.data]);
  const rows = useMemo(
    () => variableRows([], environment.data?.variables ?? [], edits.changes),
    [environment.data, edits.changes],
  );
  const shown = filterByService(rows, filter);
  const serviceName = serviceNameOf(services);
  const labelOf = rowLabel(serviceName);
  const denied = (serviceId: number, action: 'create' | 'update' | 'delete') =>
    access.denied(resourceOf(serviceId), action);
  const mayCreateFleetWide = denied(allServices, 'create') === null;
  const mayCreateService = access.can('service_environment_variable', 'create');
  const readOnly =
    access.isPending === false &&
    ['create', 'update', 'delete'].every(
      (action) =>
        !access.can('application_environment_variable', action) &&
        !access.can('service_environment_variable', action),
    );

  const ownerOf = (serviceId: number): VariableOwner =>
    serviceId === allServices
      ? { resource: 'application_environment_variable', application: fleetId }
      : { resource: 'service_environment_variable', service: serviceId };
  const { stageValue, stageDelete } = variableStaging(edits, { resourceOf, ownerOf });

  const choices = serviceChoices(services, mayCreateFleetWide, mayCreateService);
  const loading = <LoadState queries={[environment, rules]} what="variables" />;
  return (
    <Stack spacing={2}>
      <Stack
        direction="row"
        spacing={2}
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 1 }}
      >
        <Typography variant="h2">Environment variables</Typography>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <ServiceFilter services={services} value={filter} onChange={setFilter} />
          {readOnly ? null : (
            <Button
              variant="contained"
              startIcon={<AddIcon />}
              disabled={choices.length === 0 || !rules.data}
              onClick={() => setDialog({ kind: 'add' })}
            >
              Add variable
            </Button>
          )}
        </Stack>
      </Stack>
      <Typography color="text.secondary">
        Every device of the fleet gets these variables in its services. A service variable overrides
        a fleet-wide one of the same name; a device can override both.
      </Typography>
      {readOnly ? (
        <Alert severity="info">You can see the variables of this fleet but not change them.</Alert>
      ) : null}
      {loading}
      {environment.isSuccess && rules.isSuccess ? (
        <VariablesTable
          label="Environment variables"
          rows={shown}
          serviceName={serviceName}
          empty={
            filter === 'any' ? 'No environment variables yet' : 'No variables for this service'
          }
          onUndo={(row) => edits.undo(row.key)}
          actions={(row) =>
            row.staged === 'deleted' ? null : (
              <>
                {row.own && row.staged !== 'added' ? (
                  <RowAction
                    label={`Overrides of ${labelOf(row)}`}
                    title="Devices overriding this variable"
                    icon={<DevicesIcon fontSize="small" />}
                    denied={null}
                    onClick={() => setDialog({ kind: 'overrides', row })}
                  />
                ) : null}
                {readOnly ? null : (
                  <>
                    <EditAction
                      name={labelOf(row)}
                      denied={denied(row.serviceId, row.own ? 'update' : 'create')}
                      onClick={() => setDialog({ kind: 'edit', row })}
                    />
                    <DeleteAction
                      name={labelOf(row)}
                      denied={row.own ? denied(row.serviceId, 'delete') : null}
                      onClick={() => stageDelete(row)}
                    />
                  </>
                )}
              </>
            )
          }
        />
      ) : null}
      <StagedChangesBar edits={edits} />
      <UnsavedChangesGuard when={edits.dirty} />
      {rules.data ? (
        <VariableDialog
          open={dialog?.kind === 'add' || dialog?.kind === 'edit'}
          title={dialog?.kind === 'edit' ? `Edit ${dialog.row.name}` : 'Add variable'}
          submitLabel={dialog?.kind === 'edit' ? 'Stage change' : 'Add'}
          fixedName={dialog?.kind === 'edit' ? dialog.row.name : undefined}
          initialValue={dialog?.kind === 'edit' ? (dialog.row.value ?? '') : ''}
          services={dialog?.kind === 'add' && choices.length > 1 ? choices : undefined}
          nameProblem={(name, serviceId) =>
            environmentNameProblem(name, rules.data) ??
            duplicateProblem(name, (candidate) =>
              rows.some(
                (row) => row.name === candidate && row.serviceId === serviceId && hasOwnValue(row),
              ),
            )
          }
          valueProblem={valueProblem}
          onClose={() => setDialog(null)}
          onSubmit={(form) => {
            if (dialog?.kind === 'edit') {
              stageValue(dialog.row, form.value);
            } else {
              const serviceId = choices.length > 1 ? form.serviceId : (choices[0]?.id ?? 0);
              edits.stage(rowKey(serviceId, form.name), 'added', {
                action: 'create',
                owner: ownerOf(serviceId),
                name: form.name,
                value: form.value,
              });
            }
            setDialog(null);
          }}
        />
      ) : null}
      {dialog?.kind === 'overrides' ? (
        <OverridesDialog
          fleetId={fleetId}
          target={{ kind: 'environment', name: dialog.row.name, serviceId: dialog.row.serviceId }}
          fleetValue={dialog.row.value}
          deleteDenied={(resource) => access.denied(resource, 'delete')}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </Stack>
  );
};
