import { errorText } from '@flotilla/sdk/errors';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useAccountDeletion, useDeletionPreview } from './api-account-deletion.js';
import {
  deletionErrorText,
  deletionSteps,
  logoutDelayMs,
  type StepStatus,
} from './delete-account-steps.js';

const StepIcon = ({ status }: { status: StepStatus }) => {
  if (status === 'done') return <CheckCircleIcon color="success" />;
  if (status === 'failed') return <ErrorIcon color="error" />;
  if (status === 'inprogress') return <CircularProgress size={20} />;
  return <RadioButtonUncheckedIcon color="disabled" />;
};

const DeleteAccountDialog = ({ onClose }: { onClose: () => void }) => {
  const deletion = useAccountDeletion();
  const titleId = useId();
  const [password, setPassword] = useState('');
  const [statuses, setStatuses] = useState<StepStatus[]>(deletionSteps.map(() => 'pending'));
  const [error, setError] = useState<string | null>(null);
  const [deleted, setDeleted] = useState<string[] | null>(null);
  const running = statuses.some((status) => status === 'inprogress');
  const logoutTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(logoutTimer.current), []);
  const preview = useDeletionPreview();
  const mark = (index: number, status: StepStatus) =>
    setStatuses((current) => current.map((value, i) => (i === index ? status : value)));

  const run = async (): Promise<void> => {
    setError(null);
    setStatuses(deletionSteps.map(() => 'pending'));
    let step = 0;
    try {
      mark(0, 'inprogress');
      await deletion.verifyPassword(password);
      mark(0, 'done');
      // No billing yet: nothing to cancel.
      step = 1;
      mark(1, 'done');
      step = 2;
      mark(2, 'inprogress');
      mark(3, 'inprogress');
      const result = await deletion.deleteAccount(password);
      mark(2, 'done');
      mark(3, 'done');
      setDeleted(result.deletedOrganizations);
      logoutTimer.current = setTimeout(() => deletion.logout(), logoutDelayMs);
    } catch (failure) {
      const text = errorText(failure) ?? 'An error has occurred';
      setStatuses((current) =>
        current.map((value, i) => (i === step || value === 'inprogress' ? 'failed' : value)),
      );
      setError(step === 0 ? text : deletionErrorText(text));
    }
  };
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (password === '' || running) return;
    void run();
  };
  const organizations = preview.data?.organizations ?? [];
  return (
    <Dialog
      open
      onClose={running || deleted ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>Delete account</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <Typography>
              Your account, SSH keys and API keys are deleted for good, and your sessions end.
            </Typography>
            {preview.isPending ? (
              <Typography color="text.secondary">Looking up your organizations…</Typography>
            ) : null}
            {preview.isError ? (
              <Alert severity="error">
                Could not list your organizations:{' '}
                {errorText(preview.error) ?? 'An error has occurred'}
              </Alert>
            ) : null}
            {preview.isSuccess && organizations.length === 0 ? (
              <Typography color="text.secondary">
                You administer no organization alone: no organization is deleted.
              </Typography>
            ) : null}
            {organizations.length > 0 ? (
              <Alert severity="warning">
                These organizations have no other administrator and are deleted with all their
                fleets and devices:{' '}
                {organizations.map((organization) => organization.name).join(', ')}.
              </Alert>
            ) : null}
            <TextField
              label="Password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              disabled={running || deleted !== null}
              autoFocus
            />
            <List dense aria-label="Deletion steps">
              {deletionSteps.map((label, index) => (
                <ListItem key={label}>
                  <ListItemIcon>
                    <StepIcon status={statuses[index] ?? 'pending'} />
                  </ListItemIcon>
                  <ListItemText primary={label} secondary={statuses[index]} />
                </ListItem>
              ))}
            </List>
            {error === null ? null : <Alert severity="error">{error}</Alert>}
            {deleted === null ? null : (
              <Alert severity="success">Your account has been deleted. Logging out…</Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={running || deleted !== null}>
            Cancel
          </Button>
          <Button
            type="submit"
            color="error"
            variant="contained"
            disabled={password === '' || running || deleted !== null}
          >
            Delete account
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};

// Preferences → Account details: account deletion.
export const DeleteAccount = () => {
  const [open, setOpen] = useState(false);
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start', maxWidth: 420 }}>
      <Typography variant="h6" component="h2">
        Delete account
      </Typography>
      <Typography color="text.secondary">
        Deletes your account and the organizations you administer alone, with their fleets.
      </Typography>
      <Button color="error" variant="outlined" onClick={() => setOpen(true)}>
        Delete account…
      </Button>
      {open ? <DeleteAccountDialog onClose={() => setOpen(false)} /> : null}
    </Stack>
  );
};
