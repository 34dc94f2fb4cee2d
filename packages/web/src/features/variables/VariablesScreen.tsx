import { readAgentProfile } from '@flotilla/shared/device-protocol/agent-profile-rules';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { DeviceDetail } from '../../device/device-rows.js';
import { DeviceSection } from '../../device/DeviceSection.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { useFleetContext } from '../../fleet/useFleetContext.js';
import { LoadState } from '../../ui/LoadState.js';
import { useFleetAgentProfiles } from './api-agent-profiles.js';
import { useStagedVariableEdits } from './api-writes.js';
import { OverridesDialog } from './OverridesDialog.js';
import { serviceChoices, serviceNameOf } from './service-choices.js';
import type { ServiceFilterValue } from './ServiceFilter.js';
import { StagedChangesBar } from './StagedChangesBar.js';
import { UnsavedChangesGuard } from './UnsavedChangesGuard.js';
import { useVariableRows } from './useVariableRows.js';
import { allServices } from './variable-model.js';
import { variableStaging } from './variable-staging.js';
import { VariableEditDialog, type VariablesDialog } from './VariableEditDialog.js';
import { AddVariableButton, VariablesHeader } from './VariablesHeader.js';
import {
  ownerOf,
  resourceOf,
  type VariableAction,
  type VariablesKind,
  type VariablesLevel,
  variablesScreens,
  type VariablesScreenSpec,
  type VariablesSubject,
} from './variables-screens.js';
import { VariablesScreenTables } from './VariablesScreenTables.js';

// A variables screen of the fleet or of a device, for its environment variables or its
// configuration: the values of this level in tables edited through staged changes, applied
// together. What differs between the four screens is declared in variables-screens.ts.
const VariablesBody = ({
  spec,
  subject,
}: {
  spec: VariablesScreenSpec;
  subject: VariablesSubject;
}) => {
  const access = useFleetRole(subject.fleetId);
  const edits = useStagedVariableEdits();
  const data = useVariableRows(spec, subject, edits.changes);
  const [filter, setFilter] = useState<ServiceFilterValue>('any');
  const [dialog, setDialog] = useState<VariablesDialog | null>(null);
  const staging = variableStaging(edits, {
    resourceOf: (serviceId) => resourceOf(spec, serviceId),
    ownerOf: (serviceId) => ownerOf(spec, subject, serviceId),
  });
  const denied = (serviceId: number, action: VariableAction) =>
    access.denied(resourceOf(spec, serviceId), action);
  const resources = spec.serviceResource ? [spec.resource, spec.serviceResource] : [spec.resource];
  const readOnly =
    access.isPending === false &&
    spec.editableBy.every((action) => resources.every((resource) => !access.can(resource, action)));
  const choices = spec.services
    ? serviceChoices(
        data.services,
        denied(allServices, 'create') === null,
        spec.serviceResource !== null && access.can(spec.serviceResource, 'create'),
      )
    : [];
  const serviceName = spec.services ? serviceNameOf(data.services) : undefined;
  const addButton = readOnly ? null : (
    <AddVariableButton
      spec={spec}
      disabled={
        spec.services
          ? choices.length === 0 || !data.rules.data
          : denied(allServices, 'create') !== null
      }
      onClick={() => setDialog({ kind: 'add' })}
    />
  );

  return (
    <Stack spacing={2}>
      <VariablesHeader
        spec={spec}
        services={data.services}
        filter={filter}
        onFilter={setFilter}
        addButton={addButton}
      />
      <Typography color="text.secondary">{spec.description(subject.deviceType?.name)}</Typography>
      {readOnly ? <Alert severity="info">{spec.readOnlyNote}</Alert> : null}
      <LoadState queries={data.queries} what={spec.what} />
      {data.loaded && data.rules.data ? (
        <VariablesScreenTables
          spec={spec}
          rows={data.rows}
          schema={data.rules.data.configVarSchema}
          filter={filter}
          serviceName={serviceName}
          readOnly={readOnly}
          denied={denied}
          edits={edits}
          staging={staging}
          onDialog={setDialog}
          addButton={addButton}
          agentProfile={subject.agentProfile ?? null}
          fleetAgentProfiles={subject.fleetAgentProfiles ?? null}
        />
      ) : null}
      <StagedChangesBar edits={edits} />
      <UnsavedChangesGuard when={edits.dirty} />
      {data.rules.data ? (
        <VariableEditDialog
          spec={spec}
          subject={subject}
          dialog={dialog}
          rules={data.rules.data}
          rows={data.rows}
          choices={choices}
          installs={data.installs}
          edits={edits}
          staging={staging}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog?.kind === 'overrides' ? (
        <OverridesDialog
          fleetId={subject.fleetId}
          target={
            spec.services
              ? { kind: 'environment', name: dialog.row.name, serviceId: dialog.row.serviceId }
              : { kind: 'config', name: dialog.row.name }
          }
          fleetValue={dialog.row.value}
          deleteDenied={(resource) => access.denied(resource, 'delete')}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </Stack>
  );
};

const deviceSubject = (device: DeviceDetail): VariablesSubject => ({
  fleetId: device.belongs_to__application[0]?.id ?? 0,
  deviceId: device.id,
  releaseId: device.should_be_running__release[0]?.id ?? null,
  deviceType: device.is_of__device_type[0],
  agentProfile: readAgentProfile(device.agent_profile),
});

const FleetVariables = ({ spec }: { spec: VariablesScreenSpec }) => {
  const { fleet } = useFleetContext();
  const profiles = useFleetAgentProfiles(fleet.id, spec.configControls);
  const subject: VariablesSubject = {
    fleetId: fleet.id,
    deviceId: 0,
    releaseId: fleet.should_be_running__release[0]?.id ?? null,
    deviceType: fleet.is_for__device_type[0],
    fleetAgentProfiles: profiles.data ?? null,
  };
  return <VariablesBody spec={spec} subject={subject} />;
};

// The variables of a fleet (inside the fleet's pages) or of a device (inside the device's pages).
export const VariablesScreen = ({
  level,
  kind,
}: {
  level: VariablesLevel;
  kind: VariablesKind;
}) => {
  const spec = variablesScreens[level][kind];
  return level === 'fleet' ? (
    <FleetVariables spec={spec} />
  ) : (
    <DeviceSection title={spec.sectionTitle}>
      {(device) => <VariablesBody spec={spec} subject={deviceSubject(device)} />}
    </DeviceSection>
  );
};
