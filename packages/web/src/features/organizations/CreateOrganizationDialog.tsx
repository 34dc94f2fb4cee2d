import { textLengthProblem } from '@flotilla/shared/constants/text-length';
import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useCreateOrganization } from './api-organizations.js';
import { logoFileProblem } from './organization-logo.js';

// "Create organization": a name, unique among the user's organizations
// ignoring case ("already used"), and an optional logo.
export const CreateOrganizationDialog = ({
  open,
  onClose,
  takenNames,
}: {
  open: boolean;
  onClose: () => void;
  takenNames: readonly string[];
}) => {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [logo, setLogo] = useState<File | null>(null);
  const create = useCreateOrganization();
  const close = (): void => {
    setName('');
    setLogo(null);
    create.reset();
    onClose();
  };
  const trimmed = name.trim();
  const clash = takenNames.some((taken) => taken.toLowerCase() === trimmed.toLowerCase());
  const nameProblem = clash
    ? 'This name is already used by one of your organizations'
    : textLengthProblem('The organization name', trimmed);
  const logoProblem = logo ? logoFileProblem(logo) : undefined;
  return (
    <Dialog open={open} onClose={create.isPending ? undefined : close} fullWidth maxWidth="sm">
      <DialogTitle>Create organization</DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          id="create-organization"
          spacing={2}
          sx={{ pt: 1 }}
          onSubmit={(event) => {
            event.preventDefault();
            if (trimmed && !nameProblem && !logoProblem)
              create.mutate(
                { name: trimmed, logo },
                {
                  onSuccess: (id) => {
                    close();
                    void navigate(`/orgs/${id}`);
                  },
                },
              );
          }}
        >
          <TextField
            label="Organization name"
            value={name}
            autoFocus
            required
            onChange={(event) => {
              create.reset();
              setName(event.target.value);
            }}
            error={Boolean(nameProblem)}
            helperText={nameProblem}
          />
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Button component="label" variant="outlined">
              {logo ? 'Change logo' : 'Add a logo'}
              <input
                hidden
                type="file"
                accept="image/png,image/jpeg"
                aria-label="Logo file"
                onChange={(event) => setLogo(event.target.files?.[0] ?? null)}
              />
            </Button>
            <Typography variant="body2" color={logoProblem ? 'error' : 'text.secondary'}>
              {logoProblem ?? logo?.name ?? 'Optional: PNG or JPEG, at most 1,000,000 bytes'}
            </Typography>
          </Stack>
          {create.isError ? (
            <Alert severity="error">
              {errorText(create.error) ?? 'Could not create the organization'}
            </Alert>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={create.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          form="create-organization"
          variant="contained"
          disabled={!trimmed || Boolean(nameProblem) || Boolean(logoProblem) || create.isPending}
        >
          {create.isPending ? 'Creating…' : 'Create'}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
