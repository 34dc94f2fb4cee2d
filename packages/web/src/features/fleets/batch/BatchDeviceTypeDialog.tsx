import { errorText } from '@flotilla/sdk/errors';
import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { classLabels } from '../../../fleet/class-names.js';
import { useDeviceTypesOfArchitecture } from '../api.js';
import type { BatchFleet } from './batch-fleets.js';
import { sharedArchitecture } from './batch-rules.js';

export type DeviceTypeOption = { id: number; slug: string; name: string };

// Change the default device type of the selected fleets, to a type of their (one) CPU
// architecture; several architectures block the change with the reason.
export const BatchDeviceTypeDialog = ({
  fleets,
  className,
  pending,
  onChange,
  onClose,
}: {
  fleets: readonly BatchFleet[];
  className: ApplicationClass;
  pending: boolean;
  onChange: (deviceType: DeviceTypeOption) => void;
  onClose: () => void;
}) => {
  const titleId = useId();
  const check = sharedArchitecture(fleets);
  const labels = classLabels[className];
  const what = fleets.length === 1 ? labels.one : labels.many;
  const architectureId = check.ok ? check.architecture.id : 0;
  const [chosen, setChosen] = useState<DeviceTypeOption | null>(null);
  const deviceTypes = useDeviceTypesOfArchitecture(architectureId, check.ok);
  return (
    <Dialog
      open
      onClose={pending ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
    >
      <DialogTitle id={titleId}>Change default device type</DialogTitle>
      <DialogContent>
        {check.ok ? (
          <>
            <DialogContentText sx={{ mb: 2 }}>
              {`New devices of the ${fleets.length} selected ${what.toLowerCase()} default to this type. Only ${check.architecture.slug} device types are offered, so existing releases keep running.`}
            </DialogContentText>
            <Autocomplete
              options={deviceTypes.data ?? []}
              loading={deviceTypes.isPending}
              value={chosen}
              onChange={(_event, value) => setChosen(value)}
              getOptionLabel={(option) => option.name}
              isOptionEqualToValue={(option, value) => option.id === value.id}
              disabled={pending}
              renderInput={(params) => (
                <TextField {...params} autoFocus label="Default device type" />
              )}
            />
            {deviceTypes.isError ? (
              <Alert severity="warning" sx={{ mt: 2 }}>
                {errorText(deviceTypes.error) ?? 'Could not load the device types'}
              </Alert>
            ) : null}
          </>
        ) : (
          <Alert severity="warning">{check.reason}</Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={pending}>
          {check.ok ? 'Cancel' : 'Close'}
        </Button>
        {check.ok ? (
          <Button
            variant="contained"
            disabled={chosen === null || pending}
            onClick={() => {
              if (chosen) onChange(chosen);
            }}
          >
            Change
          </Button>
        ) : null}
      </DialogActions>
    </Dialog>
  );
};
