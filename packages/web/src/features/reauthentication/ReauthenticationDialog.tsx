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
import { type FormEvent, useId, useState } from 'react';
import { useReauthenticate } from './api.js';

// Asks for the password again (re-authentication), renews the session with it
// and hands back to the action that needed it.
export const ReauthenticationDialog = ({
  open,
  onConfirmed,
  onCancel,
}: {
  open: boolean;
  onConfirmed: () => void;
  onCancel: () => void;
}) => {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>Confirm your password</DialogTitle>
      {/* A fresh form each time the dialog opens: no password kept from a previous round. */}
      {open ? <PasswordForm onConfirmed={onConfirmed} onCancel={onCancel} /> : null}
    </Dialog>
  );
};

const PasswordForm = ({
  onConfirmed,
  onCancel,
}: {
  onConfirmed: () => void;
  onCancel: () => void;
}) => {
  const [password, setPassword] = useState('');
  const confirm = useReauthenticate(onConfirmed);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    // The dialog may be rendered inside another form: React events bubble through portals.
    event.stopPropagation();
    if (password !== '') confirm.mutate(password);
  };
  return (
    <form onSubmit={submit} noValidate>
      <DialogContent>
        <Stack spacing={2}>
          <Typography>
            For your security, this action needs your password again: your last sign-in was a while
            ago.
          </Typography>
          {confirm.isError ? (
            <Alert severity="error">
              {errorText(confirm.error) ?? 'Could not confirm the password'}
            </Alert>
          ) : null}
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            autoFocus
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="contained" disabled={password === '' || confirm.isPending}>
          {confirm.isPending ? 'Confirming…' : 'Confirm'}
        </Button>
      </DialogActions>
    </form>
  );
};
