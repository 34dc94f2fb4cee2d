import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useReauthenticate } from './api.js';

// The password asked for again; `others` (the linked providers' buttons) goes below it.
export const PasswordForm = ({
  others,
  onConfirmed,
  onCancel,
}: {
  others: ReactNode;
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
          {others}
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
