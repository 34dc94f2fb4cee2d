import { errorText } from '@flotilla/sdk/errors';
import {
  type ApplicationClass,
  fleetNameClash,
  fleetNameProblem,
} from '@flotilla/shared/fleets/fleet-name';
import { suggestName } from '@flotilla/shared/fleets/name-suggestion';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { fleetPath, classLabels } from '../../fleet/class-names.js';
import { useAdministeredOrganizations, useDeviceTypes } from '../../fleet/api-creation-choices.js';
import { useNamesInOrganization } from './api.js';
import { useCreateFleet } from './api-create-fleet.js';
import { AdvancedConfigurationFields } from './AdvancedConfigurationFields.js';
import { CreatedWithProblems } from './CreatedWithProblems.js';
import { useAdvancedConfiguration } from './useAdvancedConfiguration.js';

type DeviceType = { id: number; slug: string; name: string };

export const CreateFleetDialog = ({
  className,
  existingNames,
  onClose,
}: {
  className: ApplicationClass;
  existingNames: readonly string[];
  onClose: () => void;
}) => {
  const navigate = useNavigate();
  const label = classLabels[className].one.toLowerCase();
  const organizations = useAdministeredOrganizations();
  const deviceTypes = useDeviceTypes();
  const [chosenOrganization, setOrganizationId] = useState<number | ''>('');
  const [name, setName] = useState(() => suggestName(existingNames) ?? '');
  // The name's problem shows once the user edited it (or when it is not empty), so that an
  // emptied field says "name required" while an untouched empty one does not start in red.
  const [nameEdited, setNameEdited] = useState(false);
  const [chosenDeviceType, setDeviceType] = useState<DeviceType | null>(null);
  // Until the user chooses: the first administered organization and a common device type.
  const organizationId =
    chosenOrganization === '' ? (organizations.data?.[0]?.id ?? '') : chosenOrganization;
  const organization = organizations.data?.find((entry) => entry.id === organizationId);
  const commonDeviceType =
    deviceTypes.data?.find((type) => type.slug === 'raspberrypi4-64') ?? deviceTypes.data?.[0];
  const advanced = useAdvancedConfiguration(commonDeviceType?.slug);
  // The repository's balena.yml may name the default device type.
  const contractDeviceType = advanced.repository.found?.contract.defaultDeviceType;
  const deviceType =
    chosenDeviceType ??
    deviceTypes.data?.find((type) => type.slug === contractDeviceType) ??
    commonDeviceType ??
    null;
  const namesInOrganization = useNamesInOrganization(organizationId);
  const nameError = useMemo(
    () =>
      fleetNameProblem(name) ??
      fleetNameClash(name, namesInOrganization.data?.map((row) => row.app_name) ?? [], className),
    [name, namesInOrganization.data, className],
  );
  const showNameError = (nameEdited || name.length > 0) && Boolean(nameError);
  const create = useCreateFleet(className);
  const open = (id: number) => {
    onClose();
    void navigate(fleetPath(className, id));
  };
  const noOrganizations = organizations.isSuccess && organizations.data.length === 0;
  const loading = organizations.isPending || deviceTypes.isPending;
  // The fleet exists but not all of the rest: say what, and offer to open it.
  if (create.data && create.data.problems.length > 0)
    return (
      <CreatedWithProblems
        label={label}
        problems={create.data.problems}
        onOpen={() => open(create.data.id)}
      />
    );
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="create-fleet-title">
      <DialogTitle id="create-fleet-title">Create {label}</DialogTitle>
      <DialogContent>
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          {create.isError ? (
            <Alert severity="error">
              {errorText(create.error) ?? `Could not create the ${label}`}
            </Alert>
          ) : null}
          {noOrganizations ? (
            <Alert severity="warning">
              You need to be an administrator of an organization to create a {label}.
            </Alert>
          ) : null}
          <TextField
            select
            label="Organization"
            value={organizationId}
            onChange={(event) => setOrganizationId(Number(event.target.value))}
            disabled={loading || noOrganizations}
          >
            {(organizations.data ?? []).map((organization) => (
              <MenuItem key={organization.id} value={organization.id}>
                {organization.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label={`${classLabels[className].one} name`}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setNameEdited(true);
            }}
            onBlur={() => setNameEdited(true)}
            error={showNameError}
            helperText={
              (showNameError && nameError) || '4 to 100 characters: letters, digits, _ and -'
            }
          />
          <Autocomplete
            options={deviceTypes.data ?? []}
            value={deviceType}
            onChange={(_event, value) => setDeviceType(value)}
            getOptionLabel={(option) => option.name}
            isOptionEqualToValue={(option, value) => option.id === value.id}
            loading={deviceTypes.isPending}
            renderInput={(params) => <TextField {...params} label="Default device type" />}
          />
          <AdvancedConfigurationFields label={label} state={advanced} disabled={create.isPending} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          onClick={() =>
            create.mutate(
              { name, organization, deviceTypeId: deviceType?.id, ...advanced.toCreate },
              {
                onSuccess: (created) => {
                  if (created.problems.length === 0) open(created.id);
                },
              },
            )
          }
          disabled={
            loading ||
            advanced.loading ||
            advanced.blocked ||
            create.isPending ||
            Boolean(nameError) ||
            !deviceType ||
            organizationId === ''
          }
        >
          {create.isPending ? 'Creating…' : advanced.loading ? 'Checking…' : `Create new ${label}`}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
