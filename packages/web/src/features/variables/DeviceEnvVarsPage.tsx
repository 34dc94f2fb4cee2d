import AddIcon from '@mui/icons-material/Add';
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
import type { DeviceDetail } from '../../device/device-rows.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { DeviceSection } from '../../device/DeviceSection.js';
import { LoadState } from '../../ui/LoadState.js';
import { DeleteAction, EditAction } from '../../ui/RowActions.js';
import { serviceChoices, serviceNameOf } from './service-choices.js';
import { filterByService, ServiceFilter, type ServiceFilterValue } from './ServiceFilter.js';
import { StagedChangesBar } from './StagedChangesBar.js';
import { UnsavedChangesGuard } from './UnsavedChangesGuard.js';
import { useConfigVars } from './useConfigVars.js';
import { useStagedEdits } from './useStagedEdits.js';
import {
  allServices,
  deviceVariablesKey,
  fetchDeviceVariables,
  fetchFleetEnvironment,
  fleetVariablesKey,
  variablesKey,
} from './variable-queries.js';
import { hasOwnValue, rowKey, type VariableRow, variableRows } from './variable-rows.js';
import { variableStaging } from './variable-staging.js';
import {
  serviceNotFound,
  type VariableChange,
  type VariableOwner,
  writeVariable,
} from './variable-writes.js';
import { VariableDialog } from './VariableDialog.js';
import { rowLabel, VariablesTable } from './VariablesTable.js';

type Dialog = { kind: 'add' } | { kind: 'edit'; row: VariableRow };

const resourceOf = (serviceId: number) =>
  serviceId === allServices ? 'device_environment_variable' : 'device_service_environment_variable';

// The device's variables beside the fleet values it inherits: an override per variable (and per
// service for service variables), and variables only this device has.
const DeviceEnvVars = ({ device }: { device: DeviceDetail }) => {
  const fleetId = device.belongs_to__application[0]?.id ?? 0;
  const client = useClient();
  const queryClient = useQueryClient();
  const access = useFleetRole(fleetId);
  const releaseId = device.should_be_running__release[0]?.id ?? null;
  const fleetEnvironment = useQuery({
    queryKey: [...fleetVariablesKey(fleetId), 'environment', releaseId],
    queryFn: () => fetchFleetEnvironment(client, fleetId, releaseId),
    ...polling(),
  });
  const deviceVariables = useQuery({
    queryKey: deviceVariablesKey(device.id),
    queryFn: () => fetchDeviceVariables(client, device.id),
    ...polling(),
  });
  const rules = useConfigVars(device.is_of__device_type[0]?.slug ?? '');
  const edits = useStagedEdits<VariableChange>({
    write: (staged) => writeVariable(client, staged.change),
    reload: () => queryClient.invalidateQueries({ queryKey: variablesKey }),
  });
  const [filter, setFilter] = useState<ServiceFilterValue>('any');
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const ownerOf = (serviceId: number): VariableOwner =>
    serviceId === allServices
      ? { resource: 'device_environment_variable', device: device.id }
      : { resource: 'device_service_environment_variable', device: device.id, service: serviceId };
  const { stageValue, stageDelete } = variableStaging(edits, { resourceOf, ownerOf });

  const services = useMemo(() => fleetEnvironment.data?.services ?? [], [fleetEnvironment.data]);
  const installs = useMemo(() => deviceVariables.data?.installs ?? [], [deviceVariables.data]);
  const rows = useMemo(
    () =>
      variableRows(
        fleetEnvironment.data?.variables ?? [],
        [
          ...(deviceVariables.data?.environment ?? []).map((row) => ({
            ...row,
            serviceId: allServices,
          })),
          ...installs.flatMap((install) =>
            install.variables.map((row) => ({ ...row, serviceId: install.serviceId })),
          ),
        ],
        edits.changes,
      ),
    [fleetEnvironment.data, deviceVariables.data, installs, edits.changes],
  );
  const denied = (serviceId: number, action: 'create' | 'update' | 'delete') =>
    access.denied(resourceOf(serviceId), action);
  const readOnly =
    access.isPending === false &&
    !access.can('device_environment_variable', 'create') &&
    !access.can('device_service_environment_variable', 'create');
  const choices = serviceChoices(
    services,
    denied(allServices, 'create') === null,
    access.can('device_service_environment_variable', 'create'),
  );
  const editing = dialog?.kind === 'edit' ? dialog.row : null;
  const serviceName = serviceNameOf(services);
  const labelOf = rowLabel(serviceName);

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
        The device runs its services with the fleet&apos;s variables unless it sets its own value.
      </Typography>
      {readOnly ? (
        <Alert severity="info">You can see the variables of this device but not change them.</Alert>
      ) : null}
      <LoadState queries={[fleetEnvironment, deviceVariables, rules]} what="variables" />
      {fleetEnvironment.isSuccess && deviceVariables.isSuccess && rules.isSuccess ? (
        <VariablesTable
          label="Device environment variables"
          rows={filterByService(rows, filter)}
          serviceName={serviceName}
          inheritedLabel="Fleet value"
          valueLabel="Device value"
          empty="No environment variables for this device"
          onUndo={(row) => edits.undo(row.key)}
          actions={(row) =>
            row.staged === 'deleted' || readOnly ? null : (
              <>
                <EditAction
                  name={labelOf(row)}
                  denied={denied(row.serviceId, row.own ? 'update' : 'create')}
                  onClick={() => setDialog({ kind: 'edit', row })}
                />
                {row.value !== null ? (
                  <DeleteAction
                    name={labelOf(row)}
                    title={row.inherited === null ? 'Delete' : 'Remove the override'}
                    denied={row.own ? denied(row.serviceId, 'delete') : null}
                    onClick={() => stageDelete(row)}
                  />
                ) : null}
              </>
            )
          }
        />
      ) : null}
      <StagedChangesBar edits={edits} />
      <UnsavedChangesGuard when={edits.dirty} />
      {rules.data ? (
        <VariableDialog
          open={dialog !== null}
          title={
            editing
              ? editing.value === null
                ? `Override ${editing.name} on this device`
                : `Edit ${editing.name}`
              : 'Add variable'
          }
          submitLabel={editing ? 'Stage change' : 'Add'}
          fixedName={editing?.name}
          initialValue={editing ? (editing.value ?? editing.inherited ?? '') : ''}
          services={dialog?.kind === 'add' && choices.length > 1 ? choices : undefined}
          nameProblem={(name, serviceId) =>
            environmentNameProblem(name, rules.data) ??
            duplicateProblem(name, (candidate) =>
              rows.some(
                (row) => row.name === candidate && row.serviceId === serviceId && hasOwnValue(row),
              ),
            )
          }
          serviceProblem={(serviceId) =>
            serviceId === allServices || installs.some((install) => install.serviceId === serviceId)
              ? undefined
              : serviceNotFound
          }
          valueProblem={valueProblem}
          onClose={() => setDialog(null)}
          onSubmit={(form) => {
            if (editing) {
              stageValue(editing, form.value);
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
    </Stack>
  );
};

// /devices/:uuid/envvars
export const DeviceEnvVarsPage = () => (
  <DeviceSection title="Variables">{(device) => <DeviceEnvVars device={device} />}</DeviceSection>
);
