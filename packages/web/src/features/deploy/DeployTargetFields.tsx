import { fleetNameProblem } from '@flotilla/shared/fleets/fleet-name';
import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useAdministeredOrganizations, useDeviceTypes } from '../../fleet/api-creation-choices.js';
import type { DeployTarget } from './api-deploy-run.js';
import { useDeployTargetFleets } from './api.js';

// What the user chose so far; `target` turns it into a DeployTarget once it is complete.
export type TargetChoice = {
  mode: 'new' | 'existing';
  organizationId: number | '';
  name: string;
  deviceTypeSlug: string;
  fleetId: number | '';
};

export const useDeployTarget = (choice: TargetChoice): DeployTarget | null => {
  const organizations = useAdministeredOrganizations();
  const deviceTypes = useDeviceTypes();
  const fleets = useDeployTargetFleets();
  if (choice.mode === 'existing') {
    const fleet = fleets.data?.find((row) => row.id === choice.fleetId);
    const handle = fleet?.organization[0]?.handle;
    return fleet && handle !== undefined
      ? { kind: 'existing', fleetId: fleet.id, organizationHandle: handle, name: fleet.app_name }
      : null;
  }
  const organization =
    organizations.data?.find((row) => row.id === choice.organizationId) ??
    (choice.organizationId === '' ? organizations.data?.[0] : undefined);
  const deviceType = deviceTypes.data?.find((row) => row.slug === choice.deviceTypeSlug);
  if (!organization || !deviceType || fleetNameProblem(choice.name) !== undefined) return null;
  return {
    kind: 'new',
    organizationId: organization.id,
    organizationHandle: organization.handle,
    name: choice.name,
    deviceTypeId: deviceType.id,
  };
};

// Create a fleet (organization, name, device type) or choose one of the user's fleets.
export const DeployTargetFields = ({
  choice,
  onChange,
  disabled,
}: {
  choice: TargetChoice;
  onChange: (choice: TargetChoice) => void;
  disabled: boolean;
}) => {
  const organizations = useAdministeredOrganizations();
  const deviceTypes = useDeviceTypes();
  const fleets = useDeployTargetFleets();
  const organizationId =
    choice.organizationId === '' ? (organizations.data?.[0]?.id ?? '') : choice.organizationId;
  const nameProblem = fleetNameProblem(choice.name);
  const set = (change: Partial<TargetChoice>) => onChange({ ...choice, ...change });
  return (
    <Stack spacing={2}>
      <RadioGroup
        row
        aria-label="Deploy to"
        value={choice.mode}
        onChange={(event) => set({ mode: event.target.value === 'existing' ? 'existing' : 'new' })}
      >
        <FormControlLabel
          value="new"
          control={<Radio />}
          label="Create a new fleet"
          disabled={disabled}
        />
        <FormControlLabel
          value="existing"
          control={<Radio />}
          label="Use an existing fleet"
          disabled={disabled}
        />
      </RadioGroup>
      {choice.mode === 'new' ? (
        <>
          {organizations.isSuccess && organizations.data.length === 0 ? (
            <Alert severity="warning">
              You need to be an administrator of an organization to create a fleet.
            </Alert>
          ) : null}
          <TextField
            select
            label="Organization"
            value={organizationId}
            disabled={disabled || !organizations.isSuccess}
            onChange={(event) => set({ organizationId: Number(event.target.value) })}
          >
            {(organizations.data ?? []).map((organization) => (
              <MenuItem key={organization.id} value={organization.id}>
                {organization.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Fleet name"
            value={choice.name}
            disabled={disabled}
            onChange={(event) => set({ name: event.target.value })}
            error={nameProblem !== undefined}
            helperText={nameProblem ?? '4 to 100 characters: letters, digits, _ and -'}
          />
          <TextField
            select
            label="Device type"
            value={
              deviceTypes.data?.some((row) => row.slug === choice.deviceTypeSlug)
                ? choice.deviceTypeSlug
                : ''
            }
            disabled={disabled || !deviceTypes.isSuccess}
            onChange={(event) => set({ deviceTypeSlug: event.target.value })}
            helperText={
              deviceTypes.isSuccess &&
              !deviceTypes.data.some((row) => row.slug === choice.deviceTypeSlug)
                ? `Unknown device type ${choice.deviceTypeSlug}: choose one`
                : undefined
            }
          >
            {(deviceTypes.data ?? []).map((type) => (
              <MenuItem key={type.id} value={type.slug}>
                {type.name}
              </MenuItem>
            ))}
          </TextField>
        </>
      ) : (
        <TextField
          select
          label="Fleet"
          value={choice.fleetId}
          disabled={disabled || !fleets.isSuccess}
          onChange={(event) => set({ fleetId: Number(event.target.value) })}
          helperText={
            fleets.isSuccess && fleets.data.length === 0 ? 'You have no fleets yet' : undefined
          }
        >
          {(fleets.data ?? []).map((fleet) => (
            <MenuItem key={fleet.id} value={fleet.id}>
              {fleet.organization[0]?.handle}/{fleet.app_name}
            </MenuItem>
          ))}
        </TextField>
      )}
    </Stack>
  );
};
