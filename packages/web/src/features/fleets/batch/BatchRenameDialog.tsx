import { fleetNameClash, fleetNameProblem } from '@flotilla/shared/fleets/fleet-name';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { classLabels } from '../../../fleet/class-names.js';
import { useFleetNames } from '../api.js';
import type { BatchFleet } from './batch-fleets.js';

// Rename one selected fleet: the shared name rules, and no case-insensitive clash with another
// fleet of its organization.
export const BatchRenameDialog = ({
  fleet,
  pending,
  onRename,
  onClose,
}: {
  fleet: BatchFleet;
  pending: boolean;
  onRename: (name: string) => void;
  onClose: () => void;
}) => {
  const titleId = useId();
  const label = classLabels[fleet.className].one;
  const [name, setName] = useState(fleet.name);
  // Same query (and cache) as the settings page's rename.
  const others = useFleetNames(fleet.organizationId, fleet.organizationId > 0);
  const otherNames = (others.data ?? [])
    .filter((row) => row.id !== fleet.id)
    .map((row) => row.app_name);
  const changed = name !== fleet.name;
  const problem = fleetNameProblem(name) ?? fleetNameClash(name, otherNames, fleet.className);
  const ready = changed && !problem && others.isSuccess && !pending;
  return (
    <Dialog
      open
      onClose={pending ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="xs"
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (ready) onRename(name);
        }}
      >
        <DialogTitle id={titleId}>Rename {fleet.name}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label={`${label} name`}
            value={name}
            disabled={pending}
            onChange={(event) => setName(event.target.value)}
            error={changed && Boolean(problem)}
            helperText={
              changed && problem ? problem : '4 to 100 characters: letters, digits, _ and -'
            }
            slotProps={{ htmlInput: { spellCheck: false } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={!ready}>
            Rename
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
