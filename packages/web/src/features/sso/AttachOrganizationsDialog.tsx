import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useAdministeredOrganizations, useAttachOrganizations } from './api-providers.js';

// "Add organizations": more of the user's administered organizations for the provider to serve.
export const AttachOrganizationsDialog = ({
  providerId,
  attached,
  onClose,
}: {
  providerId: number;
  attached: readonly number[];
  onClose: () => void;
}) => {
  const organizations = useAdministeredOrganizations();
  const [chosen, setChosen] = useState<number[]>([]);
  const attach = useAttachOrganizations(providerId, onClose);
  const candidates = (organizations.data ?? []).filter(
    (organization) => !attached.includes(organization.id),
  );
  return (
    <Dialog open onClose={attach.isPending ? undefined : onClose} fullWidth maxWidth="xs">
      <DialogTitle>Add organizations</DialogTitle>
      <DialogContent>
        {organizations.isError ? (
          <Alert severity="error">
            {errorText(organizations.error) ?? 'Could not load your organizations'}
          </Alert>
        ) : organizations.isPending ? (
          <Typography role="status">Loading your organizations…</Typography>
        ) : candidates.length === 0 ? (
          <Typography>Every organization you administer is already attached.</Typography>
        ) : (
          <FormGroup sx={{ maxHeight: 300, overflowY: 'auto' }}>
            {candidates.map((organization) => (
              <FormControlLabel
                key={organization.id}
                control={
                  <Checkbox
                    checked={chosen.includes(organization.id)}
                    onChange={(event) =>
                      setChosen((before) =>
                        event.target.checked
                          ? [...before, organization.id]
                          : before.filter((id) => id !== organization.id),
                      )
                    }
                  />
                }
                label={organization.name}
              />
            ))}
          </FormGroup>
        )}
        {attach.isError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorText(attach.error) ?? 'Could not add the organizations'}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={attach.isPending}>
          Cancel
        </Button>
        <Button
          variant="contained"
          disabled={chosen.length === 0 || attach.isPending}
          onClick={() => attach.mutate(chosen)}
        >
          Add
        </Button>
      </DialogActions>
    </Dialog>
  );
};
